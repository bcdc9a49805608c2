import {
  DOCUMENT_STATUSES,
  HISTORY_STEPS,
  RECEIVED_STATUS,
  TRANSITIONS,
  type HistoryStep,
} from '../../../domain/documents/lifecycle';
import { WARNING_CODES } from '../../../domain/documents/warning';
import {
  MLS_EVENT_TYPES,
  MLS_RECEIVED_EVENT,
  RESPONSE_EVENT_TYPES,
  RESPONSE_RECEIVED_EVENT,
} from '../../../domain/reply-events';
import type { AttachmentMeta } from '../../../services/documents/queries';
import type { DocumentRow } from '../../../store/documents';
import type { EventRow } from '../../../store/events';
import { z } from '../openapi';
import { documentMlsSchema, documentResponseSchema, mlsView, responseView } from './replies';
import { ublFindingSchema } from './ubl-validation';

export const warningSchema = z
  .object({
    code: z.enum(WARNING_CODES).openapi({
      description:
        "`vat_rate_unusual`: a standard rate (S) some country uses, but not the seller's; `duplicate_number`: the company already sent a document of this type with this number (the message names it)",
    }),
    message: z.string(),
    path: z.string().openapi({ description: 'JSON path of the field it is about', example: 'lines[0].tax_rate' }),
  })
  .openapi('DocumentWarning', {
    description: 'Allowed, but often a mistake: the document is accepted (or valid) all the same',
  });

export const acceptedSchema = z
  .object({
    id: z.string().openapi({ example: 'doc_0mhx3k2a1bQ8sV7yT2nR4kLp' }),
    url: z.string().openapi({ description: 'Where to read the document' }),
    status: z.enum(DOCUMENT_STATUSES),
    warnings: z
      .array(warningSchema)
      .openapi({ description: 'What looked odd about it (empty when nothing did); it is sent all the same' }),
  })
  .openapi('DocumentAccepted');

export const violationSchema = z
  .object({
    path: z.string().openapi({ description: 'JSON path of the field at fault' }),
    rule: z.string().nullable().openapi({ description: 'EN 16931 or Peppol rule id, where one applies' }),
    message: z.string(),
  })
  .openapi('DocumentViolation');

export const totalsSchema = z
  .object({
    line_extension: z.string(),
    allowance_total: z.string(),
    charge_total: z.string(),
    tax_exclusive: z.string(),
    tax: z.string(),
    tax_inclusive: z.string(),
    prepaid: z.string(),
    // Stored before BT-114 was taken: none.
    payable_rounding: z
      .string()
      .default('0.00')
      .openapi({ description: 'Payable rounding amount (BT-114), part of `payable`' }),
    payable: z.string(),
  })
  .openapi('DocumentTotals');

export const attachmentSchema = z
  .object({
    id: z.string(),
    filename: z.string(),
    mime_type: z.string(),
    description: z.string().nullable(),
    size_bytes: z.number().int(),
    sha256: z.string(),
  })
  .openapi('DocumentAttachment');

const receivedSchema = z
  .object({
    source: z.enum(['peppol', 'sandbox']).openapi({
      description: '`peppol`: arrived by AS4 at our access point; `sandbox`: posted to `POST /v1/sandbox/inbound`',
    }),
    sender_id: z.string().nullable().openapi({
      description: "The sender's Peppol participant id (SBDH sender; for the sandbox, the seller's EndpointID)",
      example: '0208:0987654394',
    }),
    receiver_id: z.string().openapi({
      description: "The participant id it was addressed to (one of the company's)",
      example: '0208:0123456749',
    }),
    access_point: z.string().nullable().openapi({
      description: "The sending access point's seat id (its certificate's CN), null for the sandbox",
      example: 'PBE000002',
    }),
    as4_message_id: z.string().openapi({
      description: 'The AS4 message id (a generated one for the sandbox); a repeat of it creates nothing new',
    }),
    document_type_id: z.string().nullable().openapi({ description: 'The Peppol document type id from the envelope' }),
    acknowledged_at: z.string().nullable().openapi({
      format: 'date-time',
      description: 'When it was acknowledged (`POST /v1/documents/{id}/acknowledge`); null: not yet',
    }),
    json_view: z.record(z.string(), z.unknown()).nullable().openapi({
      description:
        'The UBL as the JSON a client posts to `POST /v1/documents` (parties, lines, allowances and charges, payment, references; attachments are listed under `attachments`); null when the document type or its content is not covered',
    }),
    json_view_problem: z.string().nullable().openapi({ description: 'Why `json_view` is null' }),
    validation: z
      .object({
        valid: z.boolean(),
        rule_set: z.string().nullable(),
        errors: z.array(ublFindingSchema),
        warnings: z.array(ublFindingSchema),
      })
      .openapi({
        description:
          'What the official EN 16931 and Peppol rules found; a received document is kept whatever they found',
      }),
  })
  .openapi('ReceivedDetails');

export const documentSummarySchema = z
  .object({
    id: z.string(),
    company_id: z.string(),
    direction: z.enum(['sent', 'received']).openapi({
      description:
        '`sent` by this service for the company, or `received` for it on Peppol (or the sandbox inbound endpoint)',
    }),
    type: z.enum(['invoice', 'credit_note', 'other']).openapi({
      description: '`other` only for a received document of a type the JSON view does not cover (its UBL is kept)',
    }),
    number: z
      .string()
      .openapi({ description: "The document's number (a received document whose number could not be read: empty)" }),
    status: z.enum([...DOCUMENT_STATUSES, RECEIVED_STATUS]).openapi({
      description: 'A sent document moves `queued → sending → delivered | failed`; a received one is `received`',
    }),
    currency: z.string(),
    payable: z.string().nullable().openapi({
      description: 'Amount due, as a decimal string (null: a received document whose totals could not be read)',
    }),
    counterparty: z.string().nullable().openapi({
      description:
        "The other party's name as the document states it: a sent document's buyer, a received one's seller (null: none stated, or a document from before this field)",
    }),
    created_at: z.string().openapi({ format: 'date-time' }),
    updated_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('DocumentSummary');

export const documentSchema = documentSummarySchema
  .extend({
    workspace_id: z.string(),
    environment: z.enum(['sandbox', 'live']),
    issue_date: z.string().openapi({ format: 'date' }),
    due_date: z.string().nullable().openapi({ format: 'date' }),
    recipient_email: z.string().nullable(),
    totals: totalsSchema.nullable().openapi({
      description:
        "A received document's totals are the ones its UBL states, with two decimals as every amount (`1300` is `1300.00`); null when they could not be read",
    }),
    received: receivedSchema
      .nullable()
      .openapi({ description: 'Set on a received document: who sent it, how, and what the official rules found' }),
    error_message: z.string().nullable().openapi({
      description:
        'Why the document failed; a refusal by the official Peppol rules lists every fatal finding as `[rule id] message (at location)`',
    }),
    rule_set: z.string().nullable().openapi({
      description:
        'The official Peppol BIS Billing 3.0 rule set (phive id, e.g. `eu.peppol.bis3:2026.5`) the UBL was validated against before sending; null until validated',
      example: 'eu.peppol.bis3:2026.5',
    }),
    official_warnings: z.array(ublFindingSchema).openapi({
      description:
        'What the official rules warned of (nothing fatal: it was sent) when they judged the UBL before sending, at most 50, each with its rule id; empty when they warned of nothing, or until validated',
    }),
    idempotency_key: z.string().nullable(),
    sent_at: z.string().nullable().openapi({ format: 'date-time' }),
    message_id: z.string().nullable().openapi({
      description:
        'What the delivery channel knows the document by: the Message-ID of the sandbox email, or the AS4 message id of a live send on Peppol',
    }),
    ubl_url: z.string().nullable().openapi({ description: 'Download of the sent UBL; null until sent' }),
    attachments: z.array(attachmentSchema),
    response: documentResponseSchema.nullable().openapi({
      description:
        "The latest Invoice Response about the document (a sent one: the buyer's business answer, event `document.response_received`); null before any. Its delivery `status` is another fact and stays as it is",
    }),
    mls: documentMlsSchema.nullable().openapi({
      description:
        'The Message Level Status the receiving access point sent about a document sent on Peppol (event `document.mls_received`); null before any',
    }),
  })
  .openapi('Document');

/** Steps of a received document's history: its receipt and the replies our company sent about it. */
const RECEIVED_HISTORY_EVENTS: readonly string[] = ['document.received', ...RESPONSE_EVENT_TYPES, ...MLS_EVENT_TYPES];
const RECEIVED_HISTORY_STEPS = ['received', 'response_sent', 'response_failed', 'mls_sent', 'mls_failed'] as const;

export const historyEntrySchema = z
  .object({
    step: z.enum([...HISTORY_STEPS, ...RECEIVED_HISTORY_STEPS]).openapi({
      description:
        'A received document: `received`, then `response_sent` / `response_failed` per Invoice Response given and `mls_sent` / `mls_failed` for the Message Level Status',
    }),
    status: z.enum([...DOCUMENT_STATUSES, RECEIVED_STATUS]),
    message: z.string().nullable(),
    error_message: z.string().nullable(),
    attempt: z.number().int().nullable().openapi({ description: 'The failed delivery attempt (step `retry`)' }),
    event: z
      .object({ id: z.string(), type: z.string() })
      .nullable()
      .openapi({ description: 'The lifecycle event this step raised' }),
    at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('DocumentHistoryEntry');

export const attachmentView = (attachment: AttachmentMeta): z.infer<typeof attachmentSchema> => ({
  id: attachment._id,
  filename: attachment.filename,
  mime_type: attachment.mime_type,
  description: attachment.description ?? null,
  size_bytes: attachment.size_bytes,
  sha256: attachment.sha256,
});

export function documentSummary(document: DocumentRow): z.infer<typeof documentSummarySchema> {
  return {
    id: document._id,
    company_id: document.company_id,
    direction: document.direction,
    type: document.type,
    number: document.number,
    status: document.status,
    currency: document.currency,
    payable: document.totals?.payable ?? null,
    counterparty: document.counterparty ?? null,
    created_at: document.created_at.toISOString(),
    updated_at: document.updated_at.toISOString(),
  };
}

/** What a received document's view adds from its content row: the JSON view and the validation report. */
export interface ReceivedContent {
  input: Record<string, unknown> | null;
  validation: z.infer<typeof receivedSchema>['validation'];
}

function receivedView(document: DocumentRow, content: ReceivedContent | null): z.infer<typeof receivedSchema> | null {
  const received = document.received;
  if (!received) return null;
  return {
    source: received.source,
    sender_id: received.sender_id ?? null,
    receiver_id: received.receiver_id,
    access_point: received.access_point ?? null,
    as4_message_id: received.as4_message_id,
    document_type_id: received.document_type_id ?? null,
    acknowledged_at: document.acknowledged_at?.toISOString() ?? null,
    json_view: content?.input ?? null,
    json_view_problem: received.json_view_problem ?? null,
    validation: content?.validation ?? { valid: false, rule_set: null, errors: [], warnings: [] },
  };
}

export function documentView(
  document: DocumentRow,
  attachments: AttachmentMeta[],
  origin: string,
  received: ReceivedContent | null = null,
): z.infer<typeof documentSchema> {
  return {
    ...documentSummary(document),
    workspace_id: document.workspace_id,
    environment: document.environment,
    issue_date: document.issue_date,
    due_date: document.due_date ?? null,
    recipient_email: document.recipient_email ?? null,
    totals: document.totals ? totalsSchema.parse(document.totals) : null,
    received: receivedView(document, received),
    error_message: document.error_message ?? null,
    rule_set: document.rule_set ?? null,
    official_warnings: (document.official_warnings ?? []).map(({ rule, message, location }) => ({
      rule: rule ?? '',
      severity: 'warning' as const,
      location: location ?? '',
      message: message ?? '',
    })),
    idempotency_key: document.idempotency_key ?? null,
    sent_at: document.sent_at?.toISOString() ?? null,
    message_id: document.message_id ?? null,
    ubl_url: document.sent_at || document.received ? `${origin}/v1/documents/${document._id}/ubl` : null,
    attachments: attachments.map(attachmentView),
    response: responseView(document.response),
    mls: mlsView(document.mls),
  };
}

/**
 * The history: one entry per lifecycle event, oldest first. Acceptance is
 * one event that stands for three steps (stored, checked, queued), all in
 * the request that sent the document.
 */
/** Replies about a sent document are steps of its history too; they leave its status as it is. */
const REPLY_STEPS: Record<string, HistoryStep> = {
  [RESPONSE_RECEIVED_EVENT]: 'response_received',
  [MLS_RECEIVED_EVENT]: 'mls_received',
};

export function historyView(
  document: DocumentRow,
  events: (EventRow & { _id: string })[],
): z.infer<typeof historyEntrySchema>[] {
  return events.flatMap((event): z.infer<typeof historyEntrySchema>[] => {
    if (RECEIVED_HISTORY_EVENTS.includes(event.type)) {
      const reply = event.data as { message?: string; error_message?: string | null };
      const step = event.type.slice('document.'.length) as (typeof RECEIVED_HISTORY_STEPS)[number];
      return [
        {
          step,
          status: document.status,
          message: reply.message ?? null,
          error_message: reply.error_message ?? null,
          attempt: null,
          event: { id: event._id, type: event.type },
          at: event.created_at.toISOString(),
        },
      ];
    }
    const data = event.data as {
      status: (typeof DOCUMENT_STATUSES)[number];
      message?: string;
      error_message?: string | null;
      attempt?: number;
    };
    const step = REPLY_STEPS[event.type] ?? (event.type === 'document.retry' ? 'retry' : data.status);
    const entry = {
      step,
      status: data.status,
      message: data.message ?? null,
      error_message: data.error_message ?? null,
      attempt: data.attempt ?? null,
      event: { id: event._id, type: event.type },
      at: event.created_at.toISOString(),
    };
    if (event.type !== 'document.queued') return [entry];
    const accepted = {
      status: TRANSITIONS.accept.to,
      error_message: null,
      attempt: null,
      event: null,
      at: document.created_at.toISOString(),
    };
    return [
      { ...accepted, step: 'created' as const, message: 'Stored' },
      { ...accepted, step: 'validated' as const, message: 'Passed the EN 16931 and Peppol BIS Billing 3.0 checks' },
      entry,
    ];
  });
}
