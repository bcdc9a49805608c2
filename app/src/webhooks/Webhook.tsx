import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';

import { answer, api, type Schemas } from '../api';
import { useLocale, useScreenWords } from '../i18n';
import { hrefOf, navigate } from '../router';
import { WEBHOOK_WORDS } from './words';

type Delivery = Schemas['WebhookDelivery'];
type DeliveryStatus = Delivery['status'];
type WebhookWords = (typeof WEBHOOK_WORDS)['en'];

/**
 * One webhook: switch it on or off, send it a test event, delete it; its deliveries newest first (all, or those
 * being delivered, delivered, or failed: the dead-letter queue), each with every attempt, and a settled one
 * delivered again. Read again every 2 s while one is being delivered.
 */
export function WebhookPage({ id }: { id: string }) {
  const { words: shared } = useLocale();
  const words = useScreenWords(WEBHOOK_WORDS);
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<DeliveryStatus | ''>('');
  const path = { params: { path: { id } } };
  const webhook = useQuery({ queryKey: ['webhook', id], queryFn: () => answer(api.GET('/v1/webhooks/{id}', path)) });
  const deliveries = useQuery({
    queryKey: ['deliveries', id, status],
    queryFn: () =>
      answer(
        api.GET('/v1/webhooks/{id}/deliveries', {
          params: { path: { id }, query: { limit: 50, ...(status && { status }) } },
        }),
      ),
    refetchInterval: (query) =>
      query.state.data?.data.some((delivery) => delivery.status === 'pending') ? 2000 : false,
  });
  const refresh = () =>
    queryClient.invalidateQueries({
      predicate: (query) => ['webhook', 'webhooks', 'deliveries'].includes(query.queryKey[0] as string),
    });
  const test = useMutation({ mutationFn: () => answer(api.POST('/v1/webhooks/{id}/test', path)), onSuccess: refresh });
  const switchTo = useMutation({
    mutationFn: (enabled: boolean) => answer(api.PATCH('/v1/webhooks/{id}', { ...path, body: { enabled } })),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: () => answer(api.DELETE('/v1/webhooks/{id}', path)),
    onSuccess: async () => {
      await refresh();
      navigate('/webhooks');
    },
  });
  const redeliver = useMutation({
    mutationFn: (deliveryId: string) =>
      answer(api.POST('/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver', { params: { path: { id, deliveryId } } })),
    onSuccess: refresh,
  });
  const failure = test.error ?? switchTo.error ?? remove.error ?? redeliver.error;

  if (webhook.isPending) return <p role="status">{shared.loading}</p>;
  if (webhook.error) return <p role="alert">{`${shared.failedToLoad} ${webhook.error.message}`}</p>;
  const shown = webhook.data;
  return (
    <article aria-labelledby="webhook-title">
      <p>
        <a href={hrefOf('/webhooks')}>{`← ${words.back}`}</a>
      </p>
      <h1 id="webhook-title">{shown.description || shown.url}</h1>
      <dl className="facts">
        <dt>{words.url}</dt>
        <dd>
          <code>{shown.url}</code>
        </dd>
        <dt>{words.events}</dt>
        <dd>{shown.events.map((kind) => (kind === '*' ? words.everyEvent : kind)).join(', ')}</dd>
        <dt>{shared.status}</dt>
        <dd>
          {shown.enabled
            ? words.enabled
            : `${words.disabled}${shown.disabled_reason ? `: ${shown.disabled_reason}` : ''}`}
        </dd>
        <dt>{words.environment}</dt>
        <dd>{shown.environment}</dd>
      </dl>
      <div className="actions">
        <button type="button" onClick={() => test.mutate()} disabled={test.isPending || !shown.enabled}>
          {words.sendTest}
        </button>
        <button
          type="button"
          className="secondary"
          onClick={() => switchTo.mutate(!shown.enabled)}
          disabled={switchTo.isPending}
        >
          {shown.enabled ? words.disable : words.enable}
        </button>
        <button type="button" className="secondary" onClick={() => remove.mutate()} disabled={remove.isPending}>
          {words.remove}
        </button>
      </div>
      {test.isSuccess && <p role="status">{words.testSent}</p>}
      {failure && <p role="alert">{failure.message}</p>}

      <h2>{words.deliveries}</h2>
      <div className="filters">
        <label>
          {words.show}{' '}
          <select value={status} onChange={(event) => setStatus(event.target.value as DeliveryStatus | '')}>
            <option value="">{words.allDeliveries}</option>
            <option value="pending">{words.delivery_pending}</option>
            <option value="succeeded">{words.delivery_succeeded}</option>
            <option value="failed">{words.deadLetters}</option>
          </select>
        </label>
      </div>
      {deliveries.data && deliveries.data.data.length === 0 && <p>{words.noDeliveries}</p>}
      {deliveries.data?.data.map((delivery) => (
        <DeliveryCard
          key={delivery.id}
          delivery={delivery}
          words={words}
          onRedeliver={() => redeliver.mutate(delivery.id)}
          busy={redeliver.isPending}
        />
      ))}
    </article>
  );
}

/** One delivery: its event, status, and every attempt (time, outcome, HTTP status, time taken, the answer's start or the error). */
function DeliveryCard({
  delivery,
  words,
  onRedeliver,
  busy,
}: {
  delivery: Delivery;
  words: WebhookWords;
  onRedeliver: () => void;
  busy: boolean;
}) {
  const { dateTime } = useLocale();
  return (
    <section className="delivery" aria-label={`${delivery.event_type} ${delivery.id}`}>
      <h3>
        {delivery.event_type}{' '}
        <span
          className={`status status-${delivery.status === 'succeeded' ? 'delivered' : delivery.status === 'failed' ? 'failed' : 'sending'}`}
        >
          {words[`delivery_${delivery.status}`]}
        </span>
      </h3>
      <p className="muted">
        <code>{delivery.id}</code> · {dateTime(delivery.created_at)}
        {delivery.next_attempt_at && ` · ${words.nextAttempt}: ${dateTime(delivery.next_attempt_at)}`}
      </p>
      <table className="documents">
        <caption className="visually-hidden">{`${words.attempts} ${delivery.id}`}</caption>
        <thead>
          <tr>
            <th scope="col">{words.at}</th>
            <th scope="col">{words.outcome}</th>
            <th scope="col">{words.code}</th>
            <th scope="col">{words.took}</th>
            <th scope="col">{words.answer}</th>
          </tr>
        </thead>
        <tbody>
          {delivery.attempts.map((attempt) => (
            <tr key={attempt.at}>
              <td data-label={words.at}>{dateTime(attempt.at)}</td>
              <td data-label={words.outcome}>{words[`delivery_${attempt.outcome}`]}</td>
              <td data-label={words.code}>{attempt.status_code ?? '—'}</td>
              <td data-label={words.took}>{`${attempt.duration_ms} ms`}</td>
              <td data-label={words.answer}>
                <code>{[attempt.error, attempt.response_excerpt].filter(Boolean).join(' · ') || words.noAnswer}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {delivery.status !== 'pending' && (
        <button
          type="button"
          className="secondary"
          onClick={onRedeliver}
          disabled={busy}
          aria-label={`${words.redeliver} ${delivery.id}`}
        >
          {words.redeliver}
        </button>
      )}
    </section>
  );
}
