import { DOCUMENT_EVENT_TYPES, DOCUMENT_STATUSES } from '../../domain/documents/lifecycle';
import type { EventRow } from '../../store/events';
import { z } from '../openapi';

/** The one shape of an event, in the events feed and in webhook deliveries alike. */
export const documentEventDataSchema = z
  .object({
    document_id: z.string(),
    company_id: z.string(),
    status: z.enum(DOCUMENT_STATUSES),
    number: z.string(),
    error_message: z.string().nullable(),
    attempt: z.number().int().optional().openapi({ description: 'The delivery attempt that failed (`document.retry` only)' }),
    message: z.string().optional().openapi({ description: 'What happened, for people' }),
  })
  .openapi('DocumentEventData');

export const creditsLowDataSchema = z
  .object({
    company_id: z.string().openapi({ description: 'The company whose live document took the balance below the threshold' }),
    balance: z.number().openapi({ description: 'The balance after it, EUR' }),
    threshold: z.number().openapi({ description: 'CREDITS_LOW_THRESHOLD, EUR' }),
  })
  .openapi('CreditsLowData');

/** What the feed lists: the document lifecycle, and the workspace's credits running low (live). */
export const FEED_EVENT_TYPES = [...DOCUMENT_EVENT_TYPES, 'credits.low'] as const;

export const eventSchema = z
  .object({
    id: z.string().openapi({ example: 'evt_0mhx3k2a1bQ8sV7yT2nR4kLp' }),
    type: z.enum(FEED_EVENT_TYPES),
    created_at: z.string().openapi({ format: 'date-time' }),
    data: z.union([documentEventDataSchema, creditsLowDataSchema]).openapi({ description: '`DocumentEventData` for `document.*`, `CreditsLowData` for `credits.low`' }),
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
