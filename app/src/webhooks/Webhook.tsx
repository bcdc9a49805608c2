import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { answer, api, type Schemas } from '../api';
import { useLocale, useScreenWords } from '../i18n';
import { QueryState } from '../query-state';
import { hrefOf, navigate } from '../router';
import { Deliveries, useDeliveries } from './Deliveries';
import { eventsText, WEBHOOK_WORDS, type WebhookWords } from './words';

/**
 * One webhook: switch it on or off, send it a test event, delete it; its deliveries newest first (all, or those
 * being delivered, delivered, or failed: the dead-letter queue), each with every attempt, and a settled one
 * delivered again. Read again every 2 s while one is being delivered.
 */
export function WebhookPage({ id }: { id: string }) {
  const words = useScreenWords(WEBHOOK_WORDS);
  const webhook = useQuery({
    queryKey: ['webhook', id],
    queryFn: () => answer(api.GET('/v1/webhooks/{id}', { params: { path: { id } } })),
  });
  const listed = useDeliveries(id);
  const { test, switchTo, remove, redeliver, failure } = useWebhookActions(id);

  if (webhook.isPending || webhook.error) return <QueryState query={webhook} />;
  const stored = webhook.data;
  return (
    <article aria-labelledby="webhook-title">
      <p>
        <a href={hrefOf('/webhooks')}>{`← ${words.back}`}</a>
      </p>
      <h1 id="webhook-title">{stored.description || stored.url}</h1>
      <WebhookFacts webhook={stored} words={words} />
      <div className="actions">
        <button type="button" onClick={() => test.mutate()} disabled={test.isPending || !stored.enabled}>
          {words.sendTest}
        </button>
        <button
          type="button"
          className="secondary"
          onClick={() => switchTo.mutate(!stored.enabled)}
          disabled={switchTo.isPending}
        >
          {stored.enabled ? words.disable : words.enable}
        </button>
        <button type="button" className="secondary" onClick={() => remove.mutate()} disabled={remove.isPending}>
          {words.remove}
        </button>
      </div>
      {test.isSuccess && <p role="status">{words.testSent}</p>}
      {failure && <p role="alert">{failure.message}</p>}

      <Deliveries
        {...listed}
        onRedeliver={(deliveryId) => redeliver.mutate(deliveryId)}
        busy={redeliver.isPending}
        words={words}
      />
    </article>
  );
}

/**
 * What can be done to the webhook: a test event, switched on or off, deleted (then back to the list), one of its
 * deliveries made again. After each, every webhook screen reads again; the failure is the first of theirs.
 */
function useWebhookActions(id: string) {
  const queryClient = useQueryClient();
  const path = { params: { path: { id } } };
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
  return { test, switchTo, remove, redeliver, failure };
}

/** Where the webhook sends, the events it is sent, whether it is on (if off, why) and its environment. */
function WebhookFacts({ webhook, words }: { webhook: Schemas['Webhook']; words: WebhookWords }) {
  const { words: shared } = useLocale();
  return (
    <dl className="facts">
      <dt>{words.url}</dt>
      <dd>
        <code>{webhook.url}</code>
      </dd>
      <dt>{words.events}</dt>
      <dd>{eventsText(webhook.events, words)}</dd>
      <dt>{shared.status}</dt>
      <dd>
        {webhook.enabled
          ? words.enabled
          : `${words.disabled}${webhook.disabled_reason ? `: ${webhook.disabled_reason}` : ''}`}
      </dd>
      <dt>{words.environment}</dt>
      <dd>{webhook.environment}</dd>
    </dl>
  );
}
