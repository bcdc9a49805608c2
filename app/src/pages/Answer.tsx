import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';

import { answer, api, type Schemas } from '../api';
import { useLocale, type Words } from '../i18n';

type Code = Schemas['InvoiceResponseRequest']['code'];
type Reason = NonNullable<Schemas['InvoiceResponseRequest']['reasons']>[number]['code'];
const REASONS: Reason[] = ['REF', 'LEG', 'REC', 'QUA', 'DEL', 'PRI', 'QTY', 'ITM', 'PAY', 'UNR', 'FIN', 'OTH'];

/**
 * A received document's answers to its seller (Peppol Invoice Responses): accept it, reject it or query it (the
 * two with a clarification code and an explanation, as PEPPOL-T111-R001 wants), and mark it read. Every answer
 * is the API's POST /v1/documents/{id}/responses; its refusals are shown as it words them.
 */
export function AnswerPanel({ id, companyId, acknowledged }: { id: string; companyId: string; acknowledged: boolean }) {
  const { words } = useLocale();
  const queryClient = useQueryClient();
  const given = useGivenAnswers(id, companyId);
  const [reason, setReason] = useState<Reason>('REF');
  const [text, setText] = useState('');
  const respond = useMutation({
    mutationFn: (code: Code) =>
      answer(
        api.POST('/v1/documents/{id}/responses', {
          params: { path: { id }, query: { company_id: companyId } },
          body: {
            code,
            ...(code !== 'AP' && { reasons: [{ code: reason, ...(text.trim() && { text: text.trim() }) }] }),
          },
        }),
      ),
    onSuccess: () => refreshAnswered(queryClient),
  });
  const submit = (code: Code) => (event: FormEvent) => {
    event.preventDefault();
    respond.mutate(code);
  };

  return (
    <section aria-labelledby="answer-title">
      <h2 id="answer-title">{words.answer}</h2>
      <MarkReadButton id={id} companyId={companyId} acknowledged={acknowledged} />
      <form className="answer" onSubmit={submit('AP')}>
        <button type="submit" disabled={respond.isPending}>
          {words.accept}
        </button>
      </form>
      <form className="answer" onSubmit={(event) => event.preventDefault()}>
        <label htmlFor="reason">{words.reasonCode}</label>
        <select id="reason" value={reason} onChange={(event) => setReason(event.target.value as Reason)}>
          {REASONS.map((code) => (
            <option key={code} value={code}>
              {words[`reason_${code}`]}
            </option>
          ))}
        </select>
        <label htmlFor="reason-text">{words.reasonText}</label>
        <textarea id="reason-text" value={text} maxLength={1000} onChange={(event) => setText(event.target.value)} />
        <div className="actions">
          <button type="button" onClick={(event) => submit('RE')(event)} disabled={respond.isPending}>
            {words.reject}
          </button>
          <button type="button" onClick={(event) => submit('UQ')(event)} disabled={respond.isPending}>
            {words.query}
          </button>
        </div>
      </form>
      {respond.isSuccess && <p role="status">{words.answerSent}</p>}
      {respond.error && <p role="alert">{respond.error.message}</p>}
      {given.data && given.data.data.length > 0 && <GivenAnswers responses={given.data.data} words={words} />}
    </section>
  );
}

/** What an answer or a read mark changes: the answers, the timeline, the document and the inbox. */
const refreshAnswered = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({
    predicate: ({ queryKey }) => ['responses', 'history', 'document', 'inbox'].includes(queryKey[0] as string),
  });

/** The answers given to the document so far. */
function useGivenAnswers(id: string, companyId: string) {
  const queryClient = useQueryClient();
  const given = useQuery({
    queryKey: ['responses', id],
    queryFn: () =>
      answer(api.GET('/v1/documents/{id}/responses', { params: { path: { id }, query: { company_id: companyId } } })),
    // An answer on its way is asked after until it is sent or has failed.
    refetchInterval: (query) =>
      query.state.data?.data.some((response) => response.status === 'queued') ? 1000 : false,
  });
  // The document's timeline shows each answer's step: read again whenever the answers change.
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: ['history', id] });
  }, [given.dataUpdatedAt, queryClient, id]);
  return given;
}

/** Marks the document read, or unread again. */
function MarkReadButton({ id, companyId, acknowledged }: { id: string; companyId: string; acknowledged: boolean }) {
  const { words } = useLocale();
  const queryClient = useQueryClient();
  // Read marks it processed (it leaves the pull queue); unread puts it back.
  const acknowledge = useMutation({
    mutationFn: (read: boolean) => {
      const path = { params: { path: { id }, query: { company_id: companyId } } };
      return answer(
        read ? api.POST('/v1/documents/{id}/acknowledge', path) : api.DELETE('/v1/documents/{id}/acknowledge', path),
      );
    },
    onSuccess: () => refreshAnswered(queryClient),
  });
  return (
    <button
      type="button"
      className="secondary"
      onClick={() => acknowledge.mutate(!acknowledged)}
      disabled={acknowledge.isPending}
    >
      {acknowledged ? words.markUnread : words.markRead}
    </button>
  );
}

function GivenAnswers({ responses, words }: { responses: Schemas['InvoiceResponse'][]; words: Words }) {
  const locale = useLocale();
  return (
    <>
      <h3>{words.answers}</h3>
      <ul className="answers">
        {responses.map((response) => (
          <li key={response.id}>
            <strong>{words[`code_${response.code}`]}</strong>
            {response.reasons
              .map((each) => ` · ${words[`reason_${each.code}`]}${each.text ? `: ${each.text}` : ''}`)
              .join('')}{' '}
            <span className="muted">{`(${words[`answer_${response.status}`]}, ${locale.dateTime(response.created_at)})`}</span>
          </li>
        ))}
      </ul>
    </>
  );
}
