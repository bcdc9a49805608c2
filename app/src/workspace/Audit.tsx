import { useInfiniteQuery } from '@tanstack/react-query';

import { answer, api } from '../api';
import { useLocale, useScreenWords } from '../i18n';
import { QueryState } from '../query-state';
import { WORKSPACE_WORDS } from './words';

/** The workspace's audit trail, newest first, a page at a time: what was done, by which account (and key), on what. */
export function Audit({ workspaceId }: { workspaceId: string }) {
  const { words: shared, dateTime } = useLocale();
  const words = useScreenWords(WORKSPACE_WORDS);
  const audit = useInfiniteQuery({
    queryKey: ['audit', workspaceId],
    queryFn: ({ pageParam }) =>
      answer(
        api.GET('/v1/workspaces/{id}/audit', {
          params: { path: { id: workspaceId }, query: { limit: 50, ...(pageParam && { cursor: pageParam }) } },
        }),
      ),
    initialPageParam: '',
    getNextPageParam: (page) => (page.has_more ? (page.next_cursor ?? undefined) : undefined),
  });
  const events = audit.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">{words.audit}</h1>
      <p>{words.auditIntro}</p>
      <QueryState query={audit} />
      <table className="documents">
        <thead>
          <tr>
            <th scope="col">{words.when}</th>
            <th scope="col">{words.action}</th>
            <th scope="col">{words.actor}</th>
            <th scope="col">{words.target}</th>
          </tr>
        </thead>
        <tbody>
          {events.map((event) => (
            <tr key={event.id}>
              <td data-label={words.when}>{dateTime(event.created_at)}</td>
              <td data-label={words.action}>
                <code>{event.action}</code>
              </td>
              <td data-label={words.actor}>
                {[event.actor.account_id, event.actor.key_prefix].filter(Boolean).join(' · ')}
              </td>
              <td data-label={words.target}>{`${event.target.type} ${event.target.id}`}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {audit.hasNextPage && (
        <button
          type="button"
          className="secondary"
          onClick={() => void audit.fetchNextPage()}
          disabled={audit.isFetchingNextPage}
        >
          {shared.more}
        </button>
      )}
    </section>
  );
}
