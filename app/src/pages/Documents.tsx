import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';

import { answer, api, type Schemas } from '../api';
import { CompanyPicker, useCompanies } from '../companies';
import { useLocale, type Words } from '../i18n';
import { hrefOf } from '../router';

type Direction = 'sent' | 'received';
type Status = Schemas['DocumentSummary']['status'];
/** What a sent document's status can be; a received one's is always `received` (the direction filter finds those). */
type SentStatus = Exclude<Status, 'received'>;
const SENT_STATUSES: SentStatus[] = ['queued', 'sending', 'delivered', 'failed'];

/** A company's documents, sent and received, newest first, a page at a time; filtered by direction and status. */
export function Documents({ workspaceId }: { workspaceId: string }) {
  const { words } = useLocale();
  const picked = useCompanies(workspaceId);
  const { companies, companyId } = picked;
  const [direction, setDirection] = useState<Direction | ''>('');
  const [status, setStatus] = useState<SentStatus | ''>('');

  if (companies.isPending) return <p role="status">{words.loading}</p>;
  if (companies.error) return <p role="alert">{`${words.failedToLoad} ${companies.error.message}`}</p>;
  if (!companyId) return <p>{words.noCompanies}</p>;

  return (
    <section aria-labelledby="documents-title">
      <h1 id="documents-title">{words.documents}</h1>
      <div className="filters">
        <CompanyPicker {...picked} />
        <label>
          {words.direction}{' '}
          <select value={direction} onChange={(event) => setDirection(event.target.value as Direction | '')}>
            <option value="">{words.directionAll}</option>
            <option value="sent">{words.directionSent}</option>
            <option value="received">{words.directionReceived}</option>
          </select>
        </label>
        <label>
          {words.status}{' '}
          <select value={status} onChange={(event) => setStatus(event.target.value as SentStatus | '')}>
            <option value="">{words.statusAll}</option>
            {SENT_STATUSES.map((each) => (
              <option key={each} value={each}>
                {words[`status_${each}`]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <DocumentTable
        queryKey={['documents', companyId, direction, status]}
        fetchPage={(cursor) =>
          answer(api.GET('/v1/documents', { params: { query: { company_id: companyId, limit: 20, ...(direction && { direction }), ...(status && { status }), ...(cursor && { cursor }) } } }))
        }
      />
    </section>
  );
}

type DocumentPage = { data: Schemas['DocumentSummary'][]; has_more: boolean; next_cursor: string | null };

/** A list of documents, newest first, a page at a time: those `fetchPage` gives (from the cursor, '' for the first page). */
export function DocumentTable({ queryKey, fetchPage }: { queryKey: unknown[]; fetchPage: (cursor: string) => Promise<DocumentPage> }) {
  const locale = useLocale();
  const { words } = locale;
  const pages = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    initialPageParam: '',
    getNextPageParam: (last) => (last.has_more && last.next_cursor ? last.next_cursor : undefined),
  });

  if (pages.isPending) return <p role="status">{words.loading}</p>;
  if (pages.error) return <p role="alert">{`${words.failedToLoad} ${pages.error.message}`}</p>;
  const documents = pages.data.pages.flatMap((page) => page.data);
  if (documents.length === 0) return <p>{words.noDocuments}</p>;

  return (
    <>
      <table className="documents">
        <thead>
          <tr>
            <th scope="col">{words.number}</th>
            <th scope="col">{words.type}</th>
            <th scope="col">{words.direction}</th>
            <th scope="col">{words.date}</th>
            <th scope="col" className="amount">
              {words.amount}
            </th>
            <th scope="col">{words.status}</th>
          </tr>
        </thead>
        <tbody>
          {documents.map((document) => (
            <tr key={document.id}>
              <td data-label={words.number}>
                <a href={hrefOf(`/documents/${encodeURIComponent(document.id)}?company=${encodeURIComponent(document.company_id)}`)}>{document.number || '—'}</a>
              </td>
              <td data-label={words.type}>{words[`type_${document.type}`]}</td>
              <td data-label={words.direction}>{words[`direction_${document.direction}`]}</td>
              <td data-label={words.date}>{locale.date(document.created_at)}</td>
              <td data-label={words.amount} className="amount">
                {document.payable === null ? '—' : locale.money(document.payable, document.currency)}
              </td>
              <td data-label={words.status}>
                <StatusBadge status={document.status} words={words} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {pages.hasNextPage && (
        <button type="button" onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
          {words.more}
        </button>
      )}
    </>
  );
}

const StatusBadge = ({ status, words }: { status: Status; words: Words }) => <span className={`status status-${status}`}>{words[`status_${status}`]}</span>;
