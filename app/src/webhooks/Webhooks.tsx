import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';

import { answer, api, type Schemas } from '../api';
import { useLocale, useScreenWords } from '../i18n';
import { QueryState } from '../query-state';
import { hrefOf } from '../router';
import { eventsText, WEBHOOK_WORDS, type WebhookWords } from './words';

type EventType = Schemas['CreateWebhookRequest']['events'][number];

/** The event kinds to choose from, `*` (every one) first; the compiler checks that none of the API's is missing. */
const EVENT_TYPES = [
  '*',
  'document.queued',
  'document.sending',
  'document.delivered',
  'document.failed',
  'document.received',
  'document.response_sent',
  'document.response_failed',
  'document.response_received',
  'document.mls_received',
  'credits.low',
  'webhook.disabled',
] as const satisfies readonly EventType[];
const everyKindListed: Exclude<EventType, (typeof EVENT_TYPES)[number]> extends never ? true : never = true;
void everyKindListed;

/** The workspace's webhooks (this environment's), each opening its deliveries; a new one added, its secret shown once. */
export function Webhooks() {
  const { words: shared } = useLocale();
  const words = useScreenWords(WEBHOOK_WORDS);
  const webhooks = useQuery({ queryKey: ['webhooks'], queryFn: () => answer(api.GET('/v1/webhooks')) });

  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">{shared.webhooks}</h1>
      <p>{words.webhooksIntro}</p>
      <QueryState query={webhooks} />
      {webhooks.data && webhooks.data.data.length === 0 && <p>{words.noWebhooks}</p>}
      {webhooks.data && webhooks.data.data.length > 0 && <WebhookTable webhooks={webhooks.data.data} words={words} />}
      <AddWebhook words={words} />
    </section>
  );
}

/** Each webhook's address (a link to its page), events, whether it is on (if off, why) and when it was added. */
function WebhookTable({ webhooks, words }: { webhooks: Schemas['Webhook'][]; words: WebhookWords }) {
  const { words: shared, dateTime } = useLocale();
  return (
    <table className="documents">
      <thead>
        <tr>
          <th scope="col">{words.url}</th>
          <th scope="col">{words.events}</th>
          <th scope="col">{shared.status}</th>
          <th scope="col">{shared.date}</th>
        </tr>
      </thead>
      <tbody>
        {webhooks.map((webhook) => (
          <tr key={webhook.id}>
            <td data-label={words.url}>
              <a href={hrefOf(`/webhooks/${encodeURIComponent(webhook.id)}`)}>{webhook.description || webhook.url}</a>
            </td>
            <td data-label={words.events}>{eventsText(webhook.events, words)}</td>
            <td data-label={shared.status}>
              {webhook.enabled
                ? words.enabled
                : `${words.disabled}${webhook.disabled_reason ? `: ${webhook.disabled_reason}` : ''}`}
            </td>
            <td data-label={shared.date}>{dateTime(webhook.created_at)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A new webhook: its address, a description, the events it is sent (every one to start with); then its secret, once. */
function AddWebhook({ words }: { words: WebhookWords }) {
  const queryClient = useQueryClient();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<EventType[]>(['*']);
  const add = useMutation({
    mutationFn: () => answer(api.POST('/v1/webhooks', { body: { url, events, ...(description && { description }) } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['webhooks'] }),
  });
  const toggle = (kind: EventType, on: boolean) =>
    setEvents((chosen) => (on ? [...chosen, kind] : chosen.filter((each) => each !== kind)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate();
  };

  return (
    <>
      <form className="answer" onSubmit={submit}>
        <label htmlFor="webhook-url">{words.url}</label>
        <input
          id="webhook-url"
          type="url"
          required
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          placeholder="https://"
        />
        <label htmlFor="webhook-description">{words.description}</label>
        <input
          id="webhook-description"
          value={description}
          maxLength={200}
          onChange={(event) => setDescription(event.target.value)}
        />
        <fieldset className="choices">
          <legend>{words.events}</legend>
          {EVENT_TYPES.map((kind) => (
            <label key={kind}>
              <input
                type="checkbox"
                checked={events.includes(kind)}
                onChange={(event) => toggle(kind, event.target.checked)}
              />{' '}
              {kind === '*' ? words.everyEvent : kind}
            </label>
          ))}
        </fieldset>
        <button type="submit" disabled={add.isPending || events.length === 0}>
          {words.add}
        </button>
      </form>
      {add.data && (
        <div role="status" className="new-key">
          <p>{words.newSecret}</p>
          <code>{add.data.secret}</code>
        </div>
      )}
      {add.error && <p role="alert">{add.error.message}</p>}
    </>
  );
}
