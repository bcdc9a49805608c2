import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';

import { answer, api, type Schemas } from '../api';
import { CompanyPicker, useCompanies } from '../companies';
import { Field } from '../field';
import { useLocale, useScreenWords } from '../i18n';
import { QueryState } from '../query-state';
import { WORKSPACE_WORDS, type WorkspaceWords } from './words';

type Kyc = Schemas['KycState'];
type DocType = Schemas['KycDocumentUpload']['doc_type'];
const WORKSPACE_DOC_TYPES = [
  'registry_extract',
  'representative_id',
  'authority_proof',
] as const satisfies readonly DocType[];

/** A file's bytes as base64, as the upload takes them. */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}

/**
 * Taking the workspace live: where its review stands (and why, when refused), the documents uploaded and those
 * still needed, an upload, and the attestation submitted for review. Read again every 5 s while under review.
 */
export function GoingLive({ workspaceId }: { workspaceId: string }) {
  const { words: shared, dateTime } = useLocale();
  const words = useScreenWords(WORKSPACE_WORDS);
  const kyc = useQuery({
    queryKey: ['kyc'],
    queryFn: () => answer(api.GET('/v1/kyc')),
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? 5000 : false),
  });
  // Approved, the workspace is live: the header's switch opens the live app.
  const queryClient = useQueryClient();
  const approved = kyc.data?.status === 'approved';
  useEffect(() => {
    if (approved) void queryClient.invalidateQueries({ queryKey: ['workspaces'] });
  }, [approved, queryClient]);
  if (kyc.isPending || kyc.error) return <QueryState query={kyc} />;
  const state = kyc.data;
  const open = state.status === 'none' || state.status === 'rejected';
  return (
    <section aria-labelledby="live-title">
      <h1 id="live-title">{words.goingLive}</h1>
      <p>{words.goingLiveIntro}</p>
      <dl className="facts">
        <dt>{shared.status}</dt>
        <dd>
          <strong>{words[`kyc_${state.status}`]}</strong>
        </dd>
        {state.reject_reason && (
          <>
            <dt>{words.rejectedBecause}</dt>
            <dd>{state.reject_reason}</dd>
          </>
        )}
        {state.submitted_at && (
          <>
            <dt>{words.submittedAt}</dt>
            <dd>{dateTime(state.submitted_at)}</dd>
          </>
        )}
        <dt>{words.documentsUploaded}</dt>
        <dd>
          {state.documents
            .map((document) => `${words[`doc_${document.doc_type}`]} (${document.filename})`)
            .join('; ') || '—'}
        </dd>
        {open && state.requirements.missing_workspace_doc_types.length > 0 && (
          <>
            <dt>{words.stillNeeded}</dt>
            <dd>{state.requirements.missing_workspace_doc_types.map((type) => words[`doc_${type}`]).join('; ')}</dd>
          </>
        )}
      </dl>
      {open && <Upload words={words} missing={state.requirements.missing_workspace_doc_types} />}
      {open && state.requirements.can_submit && <Attestation state={state} words={words} workspaceId={workspaceId} />}
    </section>
  );
}

function Upload({ words, missing }: { words: WorkspaceWords; missing: DocType[] }) {
  const queryClient = useQueryClient();
  const [docType, setDocType] = useState<DocType>(missing[0] ?? 'registry_extract');
  const [file, setFile] = useState<File | null>(null);
  const upload = useMutation({
    mutationFn: async () =>
      answer(
        api.POST('/v1/kyc/documents', {
          body: { doc_type: docType, filename: file!.name, content: await base64Of(file!) },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['kyc'] }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    upload.mutate();
  };
  return (
    <form className="answer" onSubmit={submit}>
      <label htmlFor="kyc-type">{words.docType}</label>
      <select id="kyc-type" value={docType} onChange={(event) => setDocType(event.target.value as DocType)}>
        {WORKSPACE_DOC_TYPES.map((type) => (
          <option key={type} value={type}>
            {words[`doc_${type}`]}
          </option>
        ))}
      </select>
      <label htmlFor="kyc-file">{words.file}</label>
      <input
        id="kyc-file"
        type="file"
        accept=".pdf,.png,.jpg,.jpeg,application/pdf,image/png,image/jpeg"
        onChange={(event) => setFile(event.target.files?.[0] ?? null)}
      />
      <button type="submit" disabled={!file || upload.isPending}>
        {words.upload}
      </button>
      {upload.error && <p role="alert">{upload.error.message}</p>}
    </form>
  );
}

function Attestation({ state, words, workspaceId }: { state: Kyc; words: WorkspaceWords; workspaceId: string }) {
  const queryClient = useQueryClient();
  // The company the workspace is: the last submission's, else the one chosen (the first until another is).
  const picked = useCompanies(workspaceId);
  const companyId = state.requirements.own_company_id ?? picked.companyId;
  const [fields, setFields] = useState({
    kyc_legal_name: state.legal_name ?? '',
    kyc_enterprise_number: state.enterprise_number ?? '',
    attestation_name: '',
    attestation_role: '',
  });
  const [attested, setAttested] = useState(false);
  const submitted = useMutation({
    mutationFn: () =>
      answer(
        api.POST('/v1/kyc/submit', {
          body: {
            ...fields,
            company_id: companyId!,
            attested: true,
            attestation_version: state.attestation.current_version,
          },
        }),
      ),
    onSuccess: (next) => queryClient.setQueryData(['kyc'], next),
  });
  const field = (key: keyof typeof fields, label: string) => (
    <Field
      id={`kyc-${key}`}
      label={label}
      value={fields[key]}
      onChange={(value) => setFields({ ...fields, [key]: value })}
    />
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    submitted.mutate();
  };
  return (
    <form className="send" onSubmit={submit}>
      <fieldset>
        <legend>{words.attestation}</legend>
        {!state.requirements.own_company_id && <CompanyPicker {...picked} />}
        {field('kyc_legal_name', words.legalName)}
        {field('kyc_enterprise_number', words.enterpriseNumber)}
        {field('attestation_name', words.yourName)}
        {field('attestation_role', words.yourRole)}
        <blockquote className="attestation">{state.attestation.text}</blockquote>
        <label className="check-line">
          <input type="checkbox" checked={attested} onChange={(event) => setAttested(event.target.checked)} />{' '}
          {words.attest}
        </label>
        <button type="submit" disabled={!attested || submitted.isPending}>
          {words.submit}
        </button>
      </fieldset>
      {submitted.error && <p role="alert">{submitted.error.message}</p>}
    </form>
  );
}
