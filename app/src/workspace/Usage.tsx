import { useQuery } from '@tanstack/react-query';

import { answer, api } from '../api';
import { useLocale, useScreenWords } from '../i18n';
import { WORKSPACE_WORDS } from './words';

/** The workspace's credits (balance, price of a live document) and the account's use of the last 30 days, the days with activity listed. */
export function Usage({ workspaceId }: { workspaceId: string }) {
  const { words: shared, date, money } = useLocale();
  const words = useScreenWords(WORKSPACE_WORDS);
  const workspace = useQuery({
    queryKey: ['workspace', workspaceId],
    queryFn: () => answer(api.GET('/v1/workspaces/{id}', { params: { path: { id: workspaceId } } })),
  });
  const usage = useQuery({
    queryKey: ['usage'],
    queryFn: () => answer(api.GET('/v1/account/usage', { params: { query: { days: 30 } } })),
  });
  const failed = workspace.error ?? usage.error;
  if (failed) return <p role="alert">{`${shared.failedToLoad} ${failed.message}`}</p>;
  if (!workspace.data || !usage.data) return <p role="status">{shared.loading}</p>;
  const active = usage.data.data
    .filter((day) => day.api_calls + day.documents_sent + day.documents_received > 0)
    .reverse();
  return (
    <section aria-labelledby="usage-title">
      <h1 id="usage-title">{words.usage}</h1>
      <dl className="facts">
        <dt>{words.balance}</dt>
        <dd>
          <strong>{money(workspace.data.credit_balance, 'EUR')}</strong>
        </dd>
        <dt>{words.price}</dt>
        <dd>{money(workspace.data.document_price, 'EUR')}</dd>
      </dl>
      <h2>{words.days}</h2>
      <table className="documents">
        <thead>
          <tr>
            <th scope="col">{words.day}</th>
            <th scope="col">{words.apiCalls}</th>
            <th scope="col">{words.sent}</th>
            <th scope="col">{words.received}</th>
          </tr>
        </thead>
        <tbody>
          <tr className="total">
            <th scope="row">{words.days}</th>
            <td data-label={words.apiCalls}>{usage.data.totals.api_calls}</td>
            <td data-label={words.sent}>{usage.data.totals.documents_sent}</td>
            <td data-label={words.received}>{usage.data.totals.documents_received}</td>
          </tr>
          {active.map((day) => (
            <tr key={day.date}>
              <th scope="row">{date(day.date)}</th>
              <td data-label={words.apiCalls}>{day.api_calls}</td>
              <td data-label={words.sent}>{day.documents_sent}</td>
              <td data-label={words.received}>{day.documents_received}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
