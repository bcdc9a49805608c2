import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type FormEvent, type ReactNode } from 'react';

import { answer, api, statusOf, type ApiError, type Schemas } from '../api';
import { CompanyPicker, useCompanies } from '../companies';
import { Field as LabelledField } from '../field';
import { useLocale, useScreenWords } from '../i18n';
import { navigate } from '../router';
import { useSettled } from '../settled';
import { emptyDraft, emptyLine, fieldOf, requestOf, type Draft, type LineDraft } from './draft';
import { SEND_WORDS, type SendWords } from './words';

type Problem = { field: string; text: string };

const today = () => new Date().toLocaleDateString('sv-SE');

/**
 * The send form: an invoice or credit note from the company chosen, checked by the API (`/v1/documents/validate`,
 * our checks and the official Peppol rules) whenever the person pauses, with the totals it computes; sent by
 * `POST /v1/documents` with an idempotency key per content, so a second click sends nothing twice. A UBL or CII
 * file can be sent instead. Either opens the document's page.
 */
export function Send({ workspaceId }: { workspaceId: string }) {
  const { words } = useLocale();
  const send = useScreenWords(SEND_WORDS);
  const picked = useCompanies(workspaceId);
  const { companyId } = picked;
  const [draft, setDraft] = useState<Draft>(() => emptyDraft(today()));
  const [touched, setTouched] = useState(false);
  const request = useMemo(() => requestOf(draft, companyId ?? ''), [draft, companyId]);
  const settled = useSettled(request, 500);
  const idempotencyKey = useMemo(() => crypto.randomUUID(), [request]);

  const check = useQuery({
    queryKey: ['validate', settled],
    queryFn: () => answer(api.POST('/v1/documents/validate', { body: settled })),
    enabled: touched && Boolean(settled.company_id),
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: Infinity,
  });
  const opened = (id: string) =>
    navigate(`/documents/${encodeURIComponent(id)}?company=${encodeURIComponent(companyId ?? '')}`);
  const submit = useMutation({
    mutationFn: () =>
      answer(api.POST('/v1/documents', { body: request, headers: { 'Idempotency-Key': idempotencyKey } })),
    onSuccess: (accepted) => opened(accepted.id),
  });

  const change = (next: Draft) => {
    setDraft(next);
    setTouched(true);
    // A refusal was of what was sent: once changed, the checks speak again.
    submit.reset();
  };
  const problems = problemsOf(
    submit.error ? undefined : check.data,
    (submit.error as { api?: ApiError } | null)?.api,
    send,
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit.mutate();
  };

  if (picked.companies.isPending) return <p role="status">{words.loading}</p>;
  if (!companyId) return <p>{words.noCompanies}</p>;
  return (
    <section aria-labelledby="send-title">
      <h1 id="send-title">{words.send}</h1>
      <p>{send.sendIntro}</p>
      <div className="filters">
        <CompanyPicker {...picked} />
      </div>
      <form className="send" onSubmit={onSubmit} noValidate>
        <DocumentFields draft={draft} change={change} problems={problems} words={send} />
        <BuyerFields draft={draft} change={change} problems={problems} words={send} />
        <Lines draft={draft} change={change} problems={problems} words={send} />
        <Totals validation={check.data} currency={request.currency ?? 'EUR'} words={send} />
        <div aria-live="polite" className="check">
          {check.isFetching && <p role="status">{send.checking}</p>}
          {!check.isFetching && check.data?.valid && problems.length === 0 && <p className="ready">{send.ready}</p>}
          {check.error && <p role="alert">{`${words.failedToLoad} ${check.error.message}`}</p>}
        </div>
        {problems.length > 0 && (
          <div className="problem" role="alert">
            <h2>{send.problems}</h2>
            <ul>
              {problems.map((problem) => (
                <li key={`${problem.field}:${problem.text}`}>{problem.text}</li>
              ))}
            </ul>
          </div>
        )}
        <button type="submit" disabled={submit.isPending}>
          {send.submit}
        </button>
      </form>
      <UblDrop companyId={companyId} onSent={opened} words={send} />
    </section>
  );
}

/** What to fix: the violations (each with its rule) and the official rules' errors, of the last check or of the refused send. */
function problemsOf(
  validation: Schemas['DocumentValidation'] | undefined,
  refused: ApiError | undefined,
  words: SendWords,
): Problem[] {
  const details = refused?.details as { violations?: Schemas['DocumentViolation'][] } | undefined;
  if (refused && !details?.violations) return [{ field: '', text: refused.message }];
  const violations = details?.violations ?? validation?.violations ?? [];
  const found = violations.map(({ path, rule, message }) => ({
    field: fieldOf(path),
    text: `${labelOf(path, words)}: ${message}${rule ? ` (${rule})` : ''}`,
  }));
  const official = (validation?.official?.errors ?? []).map(({ rule, message }) => ({
    field: '',
    text: `${rule}: ${message}`,
  }));
  return [...found, ...official];
}

const FIELD_WORDS: Record<string, keyof SendWords> = {
  number: 'number',
  issue_date: 'issueDate',
  due_date: 'dueDate',
  currency: 'currency',
  buyer_reference: 'buyerReference',
  name: 'buyerName',
  peppol_id: 'peppolId',
  tax_id: 'taxId',
  email: 'email',
  street: 'street',
  city: 'city',
  postal_code: 'postalCode',
  country: 'country',
  description: 'description',
  quantity: 'quantity',
  unit_price: 'unitPrice',
  tax_rate: 'taxRate',
};

/** A violation's path as a person names the field: `lines[1].unit_price` is "Lines 2 · Unit price". */
function labelOf(path: string, words: SendWords): string {
  const line = /^lines\[(\d+)\]\.?(.*)$/.exec(path);
  const last = path.split('.').pop() ?? path;
  const field = FIELD_WORDS[last] ? words[FIELD_WORDS[last]] : last;
  if (line) return `${words.lines} ${Number(line[1]) + 1}${line[2] ? ` · ${field}` : ''}`;
  if (path.startsWith('to')) return path === 'to' ? words.buyer : `${words.buyer} · ${field}`;
  return FIELD_WORDS[path] ? field : path;
}

interface Part {
  draft: Draft;
  change: (next: Draft) => void;
  problems: Problem[];
  words: SendWords;
}

/** A field of the form, named by the path the API's violations give (`to.name`, `lines[0].quantity`). */
function Field({
  name,
  problems,
  ...rest
}: {
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  problems: Problem[];
  type?: string;
  children?: ReactNode;
}) {
  return <LabelledField id={`f-${name}`} problem={problems.find((each) => each.field === name)?.text} {...rest} />;
}

function DocumentFields({ draft, change, problems, words }: Part) {
  const { words: shared } = useLocale();
  const set =
    (key: 'number' | 'issue_date' | 'due_date' | 'currency' | 'buyer_reference' | 'corrects') => (value: string) =>
      change({ ...draft, [key]: value });
  return (
    <fieldset>
      <legend>{words.kind}</legend>
      <div className="field">
        <label htmlFor="f-type">{words.kind}</label>
        <select
          id="f-type"
          value={draft.type}
          onChange={(event) => change({ ...draft, type: event.target.value as Draft['type'] })}
        >
          <option value="invoice">{shared.type_invoice}</option>
          <option value="credit_note">{shared.type_credit_note}</option>
        </select>
      </div>
      <Field name="number" label={words.number} value={draft.number} onChange={set('number')} problems={problems} />
      <Field
        name="issue_date"
        label={words.issueDate}
        type="date"
        value={draft.issue_date}
        onChange={set('issue_date')}
        problems={problems}
      />
      <Field
        name="due_date"
        label={words.dueDate}
        type="date"
        value={draft.due_date}
        onChange={set('due_date')}
        problems={problems}
      />
      <Field
        name="currency"
        label={words.currency}
        value={draft.currency}
        onChange={set('currency')}
        problems={problems}
      />
      <Field
        name="buyer_reference"
        label={words.buyerReference}
        value={draft.buyer_reference}
        onChange={set('buyer_reference')}
        problems={problems}
      />
      {draft.type === 'credit_note' && (
        <Field
          name="invoice_reference.number"
          label={words.corrects}
          value={draft.corrects}
          onChange={set('corrects')}
          problems={problems}
        />
      )}
    </fieldset>
  );
}

function BuyerFields({ draft, change, problems, words }: Part) {
  const set = (key: keyof Draft['to']) => (value: string) => change({ ...draft, to: { ...draft.to, [key]: value } });
  const field = (key: keyof Draft['to'], label: string, extra?: ReactNode) => (
    <Field name={`to.${key}`} label={label} value={draft.to[key]} onChange={set(key)} problems={problems}>
      {extra}
    </Field>
  );
  return (
    <fieldset>
      <legend>{words.buyer}</legend>
      {field('name', words.buyerName)}
      {field(
        'peppol_id',
        words.peppolId,
        <PeppolLookup peppolId={draft.to.peppol_id.trim()} kind={draft.type} words={words} />,
      )}
      {field('tax_id', words.taxId)}
      {field('email', words.email)}
      {field('street', words.street)}
      {field('city', words.city)}
      {field('postal_code', words.postalCode)}
      {field('country', words.country)}
    </fieldset>
  );
}

/** Whether the buyer's Peppol id receives this kind of document, by the service's lookup (SML, then SMP). */
function PeppolLookup({ peppolId, kind, words }: { peppolId: string; kind: Draft['type']; words: SendWords }) {
  const lookup = useMutation({
    mutationFn: () => answer(api.GET('/v1/lookup/{peppol_id}', { params: { path: { peppol_id: peppolId } } })),
  });
  // A new id forgets the old id's answer.
  const { reset } = lookup;
  useEffect(() => reset(), [peppolId, reset]);
  let lookupAnswer: string | null = null;
  if (lookup.data) lookupAnswer = lookup.data.can_receive[kind] ? words.canReceive : words.cannotReceive;
  else if (lookup.error) lookupAnswer = statusOf(lookup.error) === 404 ? words.notOnPeppol : lookup.error.message;
  return (
    <>
      <button
        type="button"
        className="secondary"
        disabled={!peppolId || lookup.isPending}
        onClick={() => lookup.mutate()}
      >
        {words.lookUp}
      </button>
      {lookupAnswer && (
        <span role="status" className="muted">
          {lookupAnswer}
        </span>
      )}
    </>
  );
}

function Lines({ draft, change, problems, words }: Part) {
  const setLine = (index: number, key: keyof LineDraft) => (value: string) =>
    change({ ...draft, lines: draft.lines.map((line, at) => (at === index ? { ...line, [key]: value } : line)) });
  const remove = (index: number) => change({ ...draft, lines: draft.lines.filter((_, at) => at !== index) });
  return (
    <fieldset>
      <legend>{words.lines}</legend>
      {draft.lines.map((line, index) => (
        <div className="line" key={index} role="group" aria-label={`${words.lines} ${index + 1}`}>
          <Field
            name={`lines[${index}].description`}
            label={words.description}
            value={line.description}
            onChange={setLine(index, 'description')}
            problems={problems}
          />
          <Field
            name={`lines[${index}].quantity`}
            label={words.quantity}
            value={line.quantity}
            onChange={setLine(index, 'quantity')}
            problems={problems}
          />
          <Field
            name={`lines[${index}].unit_price`}
            label={words.unitPrice}
            value={line.unit_price}
            onChange={setLine(index, 'unit_price')}
            problems={problems}
          />
          <Field
            name={`lines[${index}].tax_rate`}
            label={words.taxRate}
            value={line.tax_rate}
            onChange={setLine(index, 'tax_rate')}
            problems={problems}
          />
          {draft.lines.length > 1 && (
            <button
              type="button"
              className="secondary"
              onClick={() => remove(index)}
              aria-label={`${words.removeLine} ${index + 1}`}
            >
              {words.removeLine}
            </button>
          )}
        </div>
      ))}
      <button
        type="button"
        className="secondary"
        onClick={() => change({ ...draft, lines: [...draft.lines, emptyLine()] })}
      >
        {words.addLine}
      </button>
    </fieldset>
  );
}

/** The totals the API computed for the last check (never computed twice, here and there). */
function Totals({
  validation,
  currency,
  words,
}: {
  validation: Schemas['DocumentValidation'] | undefined;
  currency: string;
  words: SendWords;
}) {
  const locale = useLocale();
  const totals = validation?.totals;
  if (!totals) return null;
  const money = (amount: string) => (/^[A-Z]{3}$/.test(currency) ? locale.money(amount, currency) : amount);
  return (
    <dl className="facts totals" aria-label={words.totals}>
      <dt>{words.net}</dt>
      <dd>{money(totals.tax_exclusive)}</dd>
      <dt>{words.vat}</dt>
      <dd>{money(totals.tax)}</dd>
      <dt>{words.payable}</dt>
      <dd>
        <strong>{money(totals.payable)}</strong>
      </dd>
    </dl>
  );
}

/** A UBL (or CII) file, chosen or dropped, sent as it is for the company chosen. */
function UblDrop({ companyId, onSent, words }: { companyId: string; onSent: (id: string) => void; words: SendWords }) {
  const post = useMutation({
    mutationFn: async (file: File) =>
      answer(
        api.POST('/v1/documents', {
          params: { query: { company_id: companyId } },
          body: (await file.text()) as never,
          bodySerializer: (xml: unknown) => xml as string,
          headers: { 'Content-Type': 'application/xml' },
        }),
      ),
    onSuccess: (accepted) => onSent(accepted.id),
  });
  const take = (files: FileList | null) => files?.[0] && post.mutate(files[0]);
  const refused = (post.error as { api?: ApiError } | null)?.api;
  const violations =
    (refused?.details as { violations?: Schemas['DocumentViolation'][] } | undefined)?.violations ?? [];
  return (
    <section
      className="drop"
      aria-labelledby="drop-title"
      onDragOver={(event) => event.preventDefault()}
      onDrop={(event) => {
        event.preventDefault();
        take(event.dataTransfer.files);
      }}
    >
      <h2 id="drop-title">{words.dropTitle}</h2>
      <p>{words.dropIntro}</p>
      <label htmlFor="ubl-file">{words.chooseFile}</label>
      <input
        id="ubl-file"
        type="file"
        accept=".xml,application/xml,text/xml"
        onChange={(event) => take(event.target.files)}
        disabled={post.isPending}
      />
      {post.error && (
        <div className="problem" role="alert">
          <p>{post.error.message}</p>
          <ul>
            {violations.map(({ path, rule, message }) => (
              <li key={`${path}:${message}`}>{`${rule ? `${rule}: ` : ''}${message} (${path})`}</li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
