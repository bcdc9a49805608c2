import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { answer, api, type Schemas } from '../api';
import { useLocale, type Words } from '../i18n';
import { QueryState } from '../query-state';
import { hrefOf } from '../router';
import { AnswerPanel } from './Answer';
import { StatusBadge } from './Documents';

type Step = keyof Words & `step_${string}`;

/** The statuses a sent document leaves by itself: while in one, its page reads it again every 2 s. */
const UNSETTLED = new Set(['queued', 'sending']);

/**
 * One document: what it is, its lifecycle as a timeline (each step with its time, a failure with its reason),
 * the downloads, and the rendering a person reads, in the app's language.
 */
export function DocumentPage({ id, companyId }: { id: string; companyId: string }) {
  const { words, language } = useLocale();
  const document = useQuery({
    queryKey: ['document', id],
    queryFn: () =>
      answer(api.GET('/v1/documents/{id}', { params: { path: { id }, query: { company_id: companyId } } })),
    refetchInterval: (query) => (UNSETTLED.has(query.state.data?.status ?? '') ? 2000 : false),
  });
  // The timeline follows the document: read again whenever its status moves.
  const history = useQuery({
    queryKey: ['history', id, document.data?.status],
    queryFn: () =>
      answer(api.GET('/v1/documents/{id}/history', { params: { path: { id }, query: { company_id: companyId } } })),
    placeholderData: keepPreviousData,
  });

  if (document.isPending || document.error) return <QueryState query={document} />;
  const stored = document.data;
  const base = `/v1/documents/${encodeURIComponent(id)}`;

  return (
    <article aria-labelledby="document-title">
      <p>
        <a href={hrefOf('/documents')}>{`← ${words.back}`}</a>
      </p>
      <h1 id="document-title">{`${words[`type_${stored.type}`]} ${stored.number}`}</h1>
      <DocumentFacts document={stored} />
      {stored.error_message && (
        <section className="problem" aria-labelledby="failed-title">
          <h2 id="failed-title">{words.reasonFailed}</h2>
          <p>{stored.error_message}</p>
          <p>{words.whatToDo}</p>
        </section>
      )}
      {stored.direction === 'received' && stored.received && (
        <AnswerPanel id={id} companyId={companyId} acknowledged={stored.received.acknowledged_at !== null} />
      )}
      <Timeline entries={history.data} warnings={stored.official_warnings} />
      <Downloads base={base} />
      <section aria-labelledby="rendered-title">
        <h2 id="rendered-title">{words.rendered}</h2>
        <iframe
          className="rendered"
          title={`${words[`type_${stored.type}`]} ${stored.number}`}
          src={`${base}/html?lang=${language}`}
          sandbox="allow-scripts"
        />
      </section>
    </article>
  );
}

/** What the document is: its status, when it was issued (and is due), and what it asks to be paid. */
function DocumentFacts({ document }: { document: Schemas['Document'] }) {
  const locale = useLocale();
  const { words } = locale;
  return (
    <dl className="facts">
      <dt>{words.status}</dt>
      <dd>
        <StatusBadge status={document.status} words={words} />
      </dd>
      <dt>{words.issued}</dt>
      <dd>{locale.date(document.issue_date)}</dd>
      {document.due_date && (
        <>
          <dt>{words.due}</dt>
          <dd>{locale.date(document.due_date)}</dd>
        </>
      )}
      <dt>{words.amount}</dt>
      <dd>{document.payable === null ? '—' : locale.money(document.payable, document.currency)}</dd>
    </dl>
  );
}

/** The lifecycle, each step with its time (a failure with its reason, validation with the official rules' warnings). */
function Timeline({
  entries,
  warnings,
}: {
  entries: Schemas['DocumentHistoryEntry'][] | undefined;
  warnings: Schemas['UblFinding'][];
}) {
  const locale = useLocale();
  const { words } = locale;
  return (
    <section aria-labelledby="timeline-title">
      <h2 id="timeline-title">{words.timeline}</h2>
      {entries ? (
        <ol className="timeline">
          {entries.map((entry, index) => (
            <li key={`${entry.step}-${index}`} className={`step-${entry.step}`}>
              <time dateTime={entry.at}>{locale.dateTime(entry.at)}</time>
              <strong>{words[`step_${entry.step}` as Step]}</strong>
              {entry.attempt !== null && <span>{` (${words.attempt} ${entry.attempt})`}</span>}
              {(entry.error_message ?? entry.message) && <p>{entry.error_message ?? entry.message}</p>}
              {entry.step === 'validated' && warnings.length > 0 && (
                <>
                  <p>{words.officialWarnings}</p>
                  <ul className="findings">
                    {warnings.map((warning, at) => (
                      <li key={at}>
                        <code>{warning.rule}</code> {warning.message}
                      </li>
                    ))}
                  </ul>
                </>
              )}
            </li>
          ))}
        </ol>
      ) : (
        <p role="status">{words.loading}</p>
      )}
    </section>
  );
}

/** The document as a PDF (in the app's language), as UBL and as CII. */
function Downloads({ base }: { base: string }) {
  const { words, language } = useLocale();
  return (
    <section aria-labelledby="downloads-title">
      <h2 id="downloads-title">{words.download}</h2>
      <ul className="downloads">
        <li>
          <a href={`${base}/pdf?lang=${language}`}>{words.pdf}</a>
        </li>
        <li>
          <a href={`${base}/ubl`}>{words.ubl}</a>
        </li>
        <li>
          <a href={`${base}/cii`}>{words.cii}</a>
        </li>
      </ul>
    </section>
  );
}
