import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';

import { answer, api, type Schemas } from '../api';
import { useLocale } from '../i18n';
import { QueryState } from '../query-state';

/**
 * The account's API keys: each active one by its prefix, revocable; a new one (sandbox or live) made for the
 * workspace in use, its full value shown once, right after it is made.
 */
export function Keys({ workspaceId }: { workspaceId: string }) {
  const locale = useLocale();
  const { words } = locale;
  const queryClient = useQueryClient();
  const account = useQuery({ queryKey: ['account'], queryFn: () => answer(api.GET('/v1/account')) });
  const [label, setLabel] = useState('');
  const [sandbox, setSandbox] = useState(true);
  const create = useMutation({
    mutationFn: () => answer(api.POST('/v1/account/keys', { body: { label, workspace_id: workspaceId, sandbox } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['account'] }),
  });
  const revoke = useMutation({
    mutationFn: (prefix: string) => answer(api.DELETE('/v1/account/keys/{prefix}', { params: { path: { prefix } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['account'] }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };

  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">{words.apiKeys}</h1>
      <p>{words.keysIntro}</p>
      <form className="answer" onSubmit={submit}>
        <label htmlFor="key-label">{words.keyLabel}</label>
        <input id="key-label" value={label} maxLength={100} onChange={(event) => setLabel(event.target.value)} />
        <label htmlFor="key-kind">{words.keyKind}</label>
        <select
          id="key-kind"
          value={sandbox ? 'sandbox' : 'live'}
          onChange={(event) => setSandbox(event.target.value === 'sandbox')}
        >
          <option value="sandbox">{words.sandboxKey}</option>
          <option value="live">{words.liveKey}</option>
        </select>
        <button type="submit" disabled={create.isPending}>
          {words.createKey}
        </button>
      </form>
      {create.data && (
        <div role="status" className="new-key">
          <p>{words.newKey}</p>
          <code>{create.data.api_key}</code>
        </div>
      )}
      {(create.error ?? revoke.error) && <p role="alert">{(create.error ?? revoke.error)!.message}</p>}
      <QueryState query={account} />
      {account.data && (
        <KeyTable keys={account.data.api_keys} onRevoke={(prefix) => revoke.mutate(prefix)} busy={revoke.isPending} />
      )}
    </section>
  );
}

function KeyTable({
  keys,
  onRevoke,
  busy,
}: {
  keys: Schemas['ApiKeySummary'][];
  onRevoke: (prefix: string) => void;
  busy: boolean;
}) {
  const locale = useLocale();
  const { words } = locale;
  if (keys.length === 0) return <p>{words.noKeys}</p>;
  return (
    <table className="documents">
      <thead>
        <tr>
          <th scope="col">{words.keyPrefix}</th>
          <th scope="col">{words.keyLabel}</th>
          <th scope="col">{words.keyKind}</th>
          <th scope="col">{words.keyCreated}</th>
          <th scope="col">
            <span className="visually-hidden">{words.revoke}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {keys.map((key) => (
          <tr key={key.prefix}>
            <td data-label={words.keyPrefix}>
              <code>{key.prefix}</code>
            </td>
            <td data-label={words.keyLabel}>{key.label || '—'}</td>
            <td
              data-label={words.keyKind}
            >{`${key.sandbox ? words.sandboxKey : words.liveKey}${key.company_id ? ` · ${words.companyOnly}` : ''}`}</td>
            <td data-label={words.keyCreated}>{locale.date(key.created_at)}</td>
            <td>
              <button
                type="button"
                className="secondary"
                onClick={() => onRevoke(key.prefix)}
                disabled={busy}
                aria-label={`${words.revoke} ${key.prefix}`}
              >
                {words.revoke}
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
