import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import { answer, api, type Schemas } from '../api';
import { useLocale } from '../i18n';
import type { WebhookWords } from './words';

type Delivery = Schemas['WebhookDelivery'];
type DeliveryStatus = Delivery['status'];

/**
 * A webhook's deliveries newest first, of the status chosen (all until another is). Read again every 2 s while one
 * is being delivered. The page holds the choice, so it outlasts a moment the webhook itself fails to load.
 */
export function useDeliveries(id: string) {
  const [status, setStatus] = useState<DeliveryStatus | ''>('');
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
  return { deliveries, status, choose: setStatus };
}

/** The deliveries (all, or those being delivered, delivered, or failed: the dead-letter queue), each a card. */
export function Deliveries({
  deliveries,
  status,
  choose,
  onRedeliver,
  busy,
  words,
}: {
  deliveries: { data?: { data: Delivery[] } };
  status: DeliveryStatus | '';
  choose: (status: DeliveryStatus | '') => void;
  onRedeliver: (deliveryId: string) => void;
  busy: boolean;
  words: WebhookWords;
}) {
  return (
    <>
      <h2>{words.deliveries}</h2>
      <div className="filters">
        <label>
          {words.show}{' '}
          <select value={status} onChange={(event) => choose(event.target.value as DeliveryStatus | '')}>
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
          onRedeliver={() => onRedeliver(delivery.id)}
          busy={busy}
        />
      ))}
    </>
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
