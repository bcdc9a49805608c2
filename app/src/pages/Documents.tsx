import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import { answer, api, type Schemas } from '../api';
import { useLocale, type Words } from '../i18n';
import { QueryState } from '../query-state';
import { CompanyPicker } from '../companies';
import { hrefOf } from '../router';
import { useSettled } from '../settled';

type Direction = 'sent' | 'received';
type Status = Schemas['DocumentSummary']['status'];
/** What a sent document's status can be; a received one's is always `received` (the direction filter finds those). */
type SentStatus = Exclude<Status, 'received'>;
const SENT_STATUSES: SentStatus[] = ['queued', 'sending', 'delivered', 'failed'];

/**
 * The workspace's documents, sent and received together, newest first, a page at a time: of every company or one,
 * filtered by direction, status, issue dates and unread, and searched by number or the other party's name.
 */
export function Documents({ workspaceId }: { workspaceId: string }) {
  const { words } = useLocale();
  const companies = useQuery({ queryKey: ['companies', workspaceId], queryFn: () => answer(api.GET('/v1/companies')) });
  const [companyId, setCompanyId] = useState('');
  const [direction, setDirection] = useState<Direction | ''>('');
  const [status, setStatus] = useState<SentStatus | ''>('');
  const [search, setSearch] = useState('');
  const [issuedFrom, setIssuedFrom] = useState('');
  const [issuedTo, setIssuedTo] = useState('');
  const [unread, setUnread] = useState(false);
  const q = useSettled(search.trim(), 300);

  if (companies.isPending || companies.error) return <QueryState query={companies} />;
  if (companies.data.data.length === 0) return <p>{words.noCompanies}</p>;

  const query = {
    limit: 20,
    ...(companyId && { company_id: companyId }),
    ...(direction && { direction }),
    ...(status && { status }),
    ...(q && { q }),
    ...(issuedFrom && { issued_from: issuedFrom }),
    ...(issuedTo && { issued_to: issuedTo }),
    ...(unread && { acknowledged: 'false' as const }),
  };
  return (
    <section aria-labelledby="documents-title">
      <h1 id="documents-title">{words.documents}</h1>
      <div className="filters">
        <CompanyPicker companies={companies} companyId={companyId} choose={setCompanyId} all={words.allCompanies} />
        <label>
          {words.search}{' '}
          <input type="search" value={search} maxLength={100} onChange={(event) => setSearch(event.target.value)} />
        </label>
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
        <label>
          {words.issuedFrom}{' '}
          <input type="date" value={issuedFrom} onChange={(event) => setIssuedFrom(event.target.value)} />
        </label>
        <label>
          {words.issuedTo} <input type="date" value={issuedTo} onChange={(event) => setIssuedTo(event.target.value)} />
        </label>
        <label>
          <input type="checkbox" checked={unread} onChange={(event) => setUnread(event.target.checked)} />{' '}
          {words.unreadOnly}
        </label>
      </div>
      <DocumentTable
        queryKey={['documents', workspaceId, query]}
        fetchPage={(cursor) =>
          answer(api.GET('/v1/documents', { params: { query: { ...query, ...(cursor && { cursor }) } } }))
        }
      />
    </section>
  );
}

type DocumentPage = { data: Schemas['DocumentSummary'][]; has_more: boolean; next_cursor: string | null };

/** A list of documents, newest first, a page at a time: those `fetchPage` gives (from the cursor, '' for the first page). */
export function DocumentTable({
  queryKey,
  fetchPage,
}: {
  queryKey: unknown[];
  fetchPage: (cursor: string) => Promise<DocumentPage>;
}) {
  const locale = useLocale();
  const { words } = locale;
  const pages = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    initialPageParam: '',
    getNextPageParam: (last) => (last.has_more && last.next_cursor ? last.next_cursor : undefined),
  });

  if (pages.isPending || pages.error) return <QueryState query={pages} />;
  const documents = pages.data.pages.flatMap((page) => page.data);
  if (documents.length === 0) return <p>{words.noDocuments}</p>;

  return (
    <>
      <table className="documents">
        <thead>
          <tr>
            <th scope="col">{words.number}</th>
            <th scope="col">{words.party}</th>
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
                <a
                  href={hrefOf(
                    `/documents/${encodeURIComponent(document.id)}?company=${encodeURIComponent(document.company_id)}`,
                  )}
                >
                  {document.number || '—'}
                </a>
              </td>
              <td data-label={words.party}>{document.counterparty ?? '—'}</td>
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

/** A document's status as a coloured label, the same in the list and on the document's page. */
export const StatusBadge = ({ status, words }: { status: Status; words: Words }) => (
  <span className={`status status-${status}`}>{words[`status_${status}`]}</span>
);
