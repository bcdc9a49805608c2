import { SUBSCRIBABLE_EVENTS } from '../../../domain/webhooks';
import type { DeliveryWithAttempts } from '../../../services/webhooks/deliveries';
import type { WebhookRow } from '../../../store/webhooks';
import { webhookEndpointWorkflowId } from '../../../workflows/shared';
import { z } from '../openapi';
import { pageSchema } from '../../http/paging';

const EVENT_CHOICES: readonly string[] = [...SUBSCRIBABLE_EVENTS, '*'];

/** The kinds to receive; unknown ones are named in the error, all at once. */
export const webhookEventsSchema = z
  .array(z.string().openapi({ enum: [...EVENT_CHOICES] }))
  .min(1)
  .max(EVENT_CHOICES.length)
  .superRefine((events, ctx) => {
    const unknown = events.filter((event) => !EVENT_CHOICES.includes(event));
    if (unknown.length > 0)
      ctx.addIssue({
        code: 'custom',
        message: `Unknown event kinds: ${unknown.join(', ')}. Use ${EVENT_CHOICES.join(', ')}.`,
      });
  })
  .openapi({
    description: 'The kinds to receive, or `*` for all of them',
    example: ['document.delivered', 'document.failed'],
  });

export const webhookSchema = z
  .object({
    id: z.string().openapi({ example: 'whk_2Hk9LmQ4rT7vW0xY3zA6bC8d' }),
    url: z.string(),
    events: webhookEventsSchema,
    enabled: z.boolean(),
    disabled_reason: z.string().nullable().openapi({
      description:
        'Why the service disabled it: its endpoint answered no delivery successfully for days (WEBHOOK_DISABLE_AFTER). Null when enabled, or disabled by you',
    }),
    description: z.string().nullable(),
    environment: z
      .enum(['sandbox', 'live'])
      .openapi({ description: "The environment whose events it receives: the registering key's" }),
    secret_rotated_at: z
      .string()
      .openapi({ format: 'date-time', description: 'When the current signing secret was made' }),
    previous_secret_expires_at: z.string().nullable().openapi({
      format: 'date-time',
      description: 'Until when the previous secret still signs (V2 carries one `v1=` per active secret)',
    }),
    created_at: z.string().openapi({ format: 'date-time' }),
    updated_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('Webhook');

export const webhookWithSecretSchema = webhookSchema
  .extend({
    secret: z.string().openapi({
      description: 'The signing secret (`whsec_…`), shown this once',
      example: 'whsec_0123456789abcdefghijABCDEFGHIJ0123456789',
    }),
  })
  .openapi('WebhookWithSecret');

export function webhookView(webhook: WebhookRow, now = new Date()): z.infer<typeof webhookSchema> {
  const previous = webhook.secrets[1];
  return {
    id: webhook._id,
    url: webhook.url,
    events: webhook.events,
    enabled: webhook.enabled,
    disabled_reason: webhook.enabled ? null : (webhook.disabled_reason ?? null),
    description: webhook.description ?? null,
    environment: webhook.environment,
    secret_rotated_at: webhook.secrets[0]!.created_at.toISOString(),
    previous_secret_expires_at:
      previous?.expires_at && previous.expires_at > now ? previous.expires_at.toISOString() : null,
    created_at: webhook.created_at.toISOString(),
    updated_at: webhook.updated_at.toISOString(),
  };
}

export const deliverySchema = z
  .object({
    id: z.string().openapi({
      example: 'whd_0mhx3k2a1bQ8sV7yT2nR4kLp',
      description: 'Also the `X-Peppol-Delivery-Id` header: the same on every attempt',
    }),
    webhook_id: z.string(),
    event_id: z.string(),
    event_type: z.string(),
    status: z.enum(['pending', 'succeeded', 'failed']).openapi({
      description:
        '`failed`: all 5 attempts failed, or the webhook was disabled after failing for days; the delivery is in the dead-letter queue and can be redelivered',
    }),
    next_attempt_at: z.string().nullable().openapi({
      format: 'date-time',
      description:
        'While pending: when its next attempt is due (later while its endpoint is paused after many failures); null once settled',
    }),
    attempts: z.array(
      z.object({
        at: z.string().openapi({ format: 'date-time' }),
        outcome: z.enum(['succeeded', 'failed']),
        status_code: z
          .number()
          .int()
          .nullable()
          .openapi({ description: "The receiver's HTTP status; null when there was no answer" }),
        response_excerpt: z.string().nullable().openapi({
          description: "The start of the receiver's answer (at most 256 characters); null when it sent none",
        }),
        error: z.string().nullable(),
        duration_ms: z.number().int(),
        next_attempt_at: z.string().nullable().openapi({
          format: 'date-time',
          description: 'When the next attempt was due after this one; null after a success and after the last attempt',
        }),
      }),
    ),
    workflow_id: z.string().openapi({
      description: "Its endpoint's delivery workflow, which sends it (the Temporal Web UI finds it by this id)",
      example: 'webhook-endpoint-whk_2Hk9LmQ4rT7vW0xY3zA6bC8d',
    }),
    created_at: z.string().openapi({ format: 'date-time' }),
    updated_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('WebhookDelivery');

export const deliveryPageSchema = pageSchema(deliverySchema, 'WebhookDeliveryList');

export function deliveryView(delivery: DeliveryWithAttempts): z.infer<typeof deliverySchema> {
  return {
    id: delivery._id,
    webhook_id: delivery.webhook_id,
    event_id: delivery.event_id,
    event_type: delivery.event_type,
    status: delivery.status,
    next_attempt_at: delivery.status === 'pending' ? (delivery.next_attempt_at?.toISOString() ?? null) : null,
    attempts: delivery.attempts.map((attempt) => ({
      at: attempt.at.toISOString(),
      outcome: attempt.outcome,
      status_code: attempt.status_code ?? null,
      response_excerpt: attempt.response_excerpt ?? null,
      error: attempt.error ?? null,
      duration_ms: Math.round(attempt.duration_ms),
      next_attempt_at: attempt.next_attempt_at?.toISOString() ?? null,
    })),
    workflow_id: webhookEndpointWorkflowId(delivery.webhook_id),
    created_at: delivery.created_at.toISOString(),
    updated_at: delivery.updated_at.toISOString(),
  };
}
