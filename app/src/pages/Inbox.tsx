import { answer, api } from '../api';
import { CompanyPicker, useCompanies } from '../companies';
import { useLocale } from '../i18n';
import { QueryState } from '../query-state';
import { DocumentTable } from './Documents';

/** What arrived for a company: the documents not yet read first, then those read. Each opens to be answered. */
export function Inbox({ workspaceId }: { workspaceId: string }) {
  const { words } = useLocale();
  const picked = useCompanies(workspaceId);
  const { companies, companyId } = picked;

  if (companies.isPending || companies.error) return <QueryState query={companies} />;
  if (!companyId) return <p>{words.noCompanies}</p>;

  const inbox = (acknowledged: 'true' | 'false') => (cursor: string) =>
    answer(
      api.GET('/v1/inbox', {
        params: { query: { company_id: companyId, acknowledged, limit: 20, ...(cursor && { cursor }) } },
      }),
    );
  return (
    <section aria-labelledby="inbox-title">
      <h1 id="inbox-title">{words.inbox}</h1>
      <div className="filters">
        <CompanyPicker {...picked} />
      </div>
      <h2>{words.unread}</h2>
      <DocumentTable queryKey={['inbox', companyId, 'unread']} fetchPage={inbox('false')} />
      <h2>{words.read}</h2>
      <DocumentTable queryKey={['inbox', companyId, 'read']} fetchPage={inbox('true')} />
    </section>
  );
}
