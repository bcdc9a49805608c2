import { DOCUMENT_EVENT_TYPES, DOCUMENT_STATUSES, RECEIVED_EVENT } from '../../../domain/documents/lifecycle';
import {
  MLS_EVENT_TYPES,
  MLS_RECEIVED_EVENT,
  RESPONSE_EVENT_TYPES,
  RESPONSE_RECEIVED_EVENT,
} from '../../../domain/reply-events';
import type { EventRow } from '../../../store/events';
import { mlsReceivedDataSchema, responseReceivedDataSchema } from './replies';
import { z } from '../openapi';

/** The one shape of an event, in the events feed and in webhook deliveries alike. */
export const documentEventDataSchema = z
  .object({
    document_id: z.string(),
    company_id: z.string(),
    status: z.enum(DOCUMENT_STATUSES),
    number: z.string(),
    error_message: z.string().nullable(),
    attempt: z
      .number()
      .int()
      .optional()
      .openapi({ description: 'The delivery attempt that failed (`document.retry` only)' }),
    message: z.string().optional().openapi({ description: 'What happened, for people' }),
  })
  .openapi('DocumentEventData');

export const creditsLowDataSchema = z
  .object({
    company_id: z
      .string()
      .openapi({ description: 'The company whose live document took the balance below the threshold' }),
    balance: z.number().openapi({ description: 'The balance after it, EUR' }),
    threshold: z.number().openapi({ description: 'CREDITS_LOW_THRESHOLD, EUR' }),
  })
  .openapi('CreditsLowData');

export const receivedEventDataSchema = z
  .object({
    document_id: z.string(),
    company_id: z.string(),
    direction: z.literal('received'),
    status: z.literal('received'),
    type: z.enum(['invoice', 'credit_note', 'other']),
    number: z.string(),
    sender_id: z.string().nullable().openapi({ description: "The sender's Peppol participant id" }),
    receiver_id: z.string().openapi({ description: 'The participant id it was addressed to' }),
    json_view: z.boolean().openapi({
      description:
        'False when the JSON view is unavailable (the document type or its content is not covered); the UBL is kept and downloadable',
    }),
    message: z.string(),
  })
  .openapi('DocumentReceivedData');

const clarificationData = z.object({ code: z.string(), text: z.string().nullable() });

export const responseEventDataSchema = z
  .object({
    document_id: z.string().openapi({ description: 'The received document answered' }),
    company_id: z.string(),
    response_id: z.string(),
    code: z.enum(['AB', 'IP', 'UQ', 'CA', 'RE', 'AP', 'PD']),
    reasons: z.array(clarificationData),
    actions: z.array(clarificationData),
    note: z.string().nullable(),
    receiver_id: z.string().nullable().openapi({ description: 'The seller answered' }),
    status: z.enum(['sent', 'failed']),
    as4_message_id: z
      .string()
      .nullable()
      .openapi({ description: 'The AS4 message id; null for a sandbox-received document (no network)' }),
    error_message: z.string().nullable(),
    message: z.string(),
  })
  .openapi('DocumentResponseData');

const mlsSentDataSchema = z
  .object({
    document_id: z.string().openapi({ description: 'The received document the status is about' }),
    company_id: z.string(),
    code: z.enum(['AP', 'AB', 'RE']),
    receiver_id: z.string().openapi({ description: 'The service provider it went to, `0242:<SPID>`' }),
    status: z.enum(['sent', 'failed']),
    as4_message_id: z.string().nullable(),
    error_message: z.string().nullable(),
    message: z.string(),
  })
  .openapi('DocumentMlsSentData');

const RECEIVING_EVENT_TYPES = [
  'company.receiving_registered',
  'company.receiving_unregistered',
  'company.receiving_awaiting_review',
  'company.receiving_failed',
] as const;

const companyReceivingDataSchema = z
  .object({
    company_id: z.string(),
    participant_id: z.string().nullable().openapi({
      description:
        'The Peppol participant registered, unregistered, waiting for an operator review, or whose registration failed',
    }),
    status: z.enum(['registered', 'unregistered', 'awaiting_review', 'failed']),
    error_message: z.string().nullable().openapi({
      description: 'Why the registration failed, or why an operator reviews the participant id before it is registered',
    }),
  })
  .openapi('CompanyReceivingData');

export const webhookDisabledDataSchema = z
  .object({
    webhook_id: z.string(),
    url: z.string(),
    failing_since: z.string().openapi({
      format: 'date-time',
      description: 'When its endpoint last answered a delivery successfully, or first failed',
    }),
    reason: z.string().openapi({
      description: 'Why, and what to do: mend the endpoint, enable the webhook again, redeliver the failed deliveries',
    }),
  })
  .openapi('WebhookDisabledData');

/**
 * What the feed lists: the document lifecycle, documents received, the
 * workspace's credits running low (live), its companies' registration
 * as Peppol receivers (live), and a webhook the service disabled.
 */
export const FEED_EVENT_TYPES = [
  ...DOCUMENT_EVENT_TYPES,
  RECEIVED_EVENT,
  ...RESPONSE_EVENT_TYPES,
  ...MLS_EVENT_TYPES,
  RESPONSE_RECEIVED_EVENT,
  MLS_RECEIVED_EVENT,
  'credits.low',
  ...RECEIVING_EVENT_TYPES,
  'webhook.disabled',
] as const;

export const eventSchema = z
  .object({
    id: z.string().openapi({ example: 'evt_0mhx3k2a1bQ8sV7yT2nR4kLp' }),
    type: z.enum(FEED_EVENT_TYPES),
    created_at: z.string().openapi({ format: 'date-time' }),
    data: z
      .union([
        documentEventDataSchema,
        receivedEventDataSchema,
        responseEventDataSchema,
        mlsSentDataSchema,
        responseReceivedDataSchema,
        mlsReceivedDataSchema,
        creditsLowDataSchema,
        companyReceivingDataSchema,
        webhookDisabledDataSchema,
      ])
      .openapi({
        description:
          '`DocumentEventData` for the `document.*` lifecycle, `DocumentReceivedData` for `document.received`, `DocumentResponseData` for `document.response_sent` / `_failed`, ' +
          '`DocumentMlsSentData` for `document.mls_sent` / `_failed`, `DocumentResponseReceivedData` for `document.response_received`, ' +
          '`DocumentMlsReceivedData` for `document.mls_received`, `CreditsLowData` for `credits.low`, `CompanyReceivingData` for `company.receiving_*`, ' +
          '`WebhookDisabledData` for `webhook.disabled`',
      }),
  })
  .openapi('Event');

export function eventView(row: EventRow & { _id: string }): z.infer<typeof eventSchema> {
  return {
    id: row._id,
    type: row.type as z.infer<typeof eventSchema>['type'],
    created_at: row.created_at.toISOString(),
    data: row.data as z.infer<typeof eventSchema>['data'],
  };
}
