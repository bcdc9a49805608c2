import { useLocale } from './i18n';

/**
 * Where a screen's list stands while its query has no data: "loading" (a status, so a screen reader hears it) or why
 * it failed; nothing once the data is there. An empty list is never shown for one that has not come yet.
 */
export function QueryState({ query }: { query: { isPending: boolean; error: Error | null } }) {
  const { words } = useLocale();
  if (query.error) return <p role="alert">{`${words.failedToLoad} ${query.error.message}`}</p>;
  if (query.isPending) return <p role="status">{words.loading}</p>;
  return null;
}
