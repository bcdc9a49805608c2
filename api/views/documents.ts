import { DOCUMENT_STATUSES, HISTORY_STEPS, TRANSITIONS, type HistoryStep } from '../../domain/documents/lifecycle';
import type { AttachmentMeta } from '../../services/documents/queries';
import type { DocumentRow } from '../../store/documents';
import type { EventRow } from '../../store/events';
import { z } from '../openapi';

export const acceptedSchema = z
  .object({
    id: z.string().openapi({ example: 'doc_0mhx3k2a1bQ8sV7yT2nR4kLp' }),
    url: z.string().openapi({ description: 'Where to read the document' }),
    status: z.enum(DOCUMENT_STATUSES),
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
    payable: z.string(),
  })
  .openapi('DocumentTotals');

export const attachmentSchema = z
  .object({ id: z.string(), filename: z.string(), mime_type: z.string(), description: z.string().nullable(), size_bytes: z.number().int(), sha256: z.string() })
  .openapi('DocumentAttachment');

export const documentSummarySchema = z
  .object({
    id: z.string(),
    company_id: z.string(),
    type: z.enum(['invoice', 'credit_note']),
    number: z.string(),
    status: z.enum(DOCUMENT_STATUSES),
    currency: z.string(),
    payable: z.string().openapi({ description: 'Amount due, as a decimal string' }),
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
    totals: totalsSchema,
    error_message: z.string().nullable().openapi({
      description: 'Why the document failed; a refusal by the official Peppol rules lists every fatal finding as `[rule id] message (at location)`',
    }),
    rule_set: z.string().nullable().openapi({
      description: 'The official Peppol BIS Billing 3.0 rule set (phive id, e.g. `eu.peppol.bis3:2026.5`) the UBL was validated against before sending; null until validated',
      example: 'eu.peppol.bis3:2026.5',
    }),
    idempotency_key: z.string().nullable(),
    sent_at: z.string().nullable().openapi({ format: 'date-time' }),
    message_id: z
      .string()
      .nullable()
      .openapi({ description: 'What the delivery channel knows the document by: the Message-ID of the sandbox email, or the AS4 message id of a live send on Peppol' }),
    ubl_url: z.string().nullable().openapi({ description: 'Download of the sent UBL; null until sent' }),
    attachments: z.array(attachmentSchema),
  })
  .openapi('Document');

export const historyEntrySchema = z
  .object({
    step: z.enum(HISTORY_STEPS),
    status: z.enum(DOCUMENT_STATUSES),
    message: z.string().nullable(),
    error_message: z.string().nullable(),
    attempt: z.number().int().nullable().openapi({ description: 'The failed delivery attempt (step `retry`)' }),
    event: z.object({ id: z.string(), type: z.string() }).nullable().openapi({ description: 'The lifecycle event this step raised' }),
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
    type: document.type,
    number: document.number,
    status: document.status,
    currency: document.currency,
    payable: document.totals.payable!,
    created_at: document.created_at.toISOString(),
    updated_at: document.updated_at.toISOString(),
  };
}

export function documentView(document: DocumentRow, attachments: AttachmentMeta[], origin: string): z.infer<typeof documentSchema> {
  return {
    ...documentSummary(document),
    workspace_id: document.workspace_id,
    environment: document.environment,
    issue_date: document.issue_date,
    due_date: document.due_date ?? null,
    recipient_email: document.recipient_email ?? null,
    totals: totalsSchema.parse(document.totals),
    error_message: document.error_message ?? null,
    rule_set: document.rule_set ?? null,
    idempotency_key: document.idempotency_key ?? null,
    sent_at: document.sent_at?.toISOString() ?? null,
    message_id: document.message_id ?? null,
    ubl_url: document.sent_at ? `${origin}/v1/documents/${document._id}/ubl` : null,
    attachments: attachments.map(attachmentView),
  };
}

/**
 * The history: one entry per lifecycle event, oldest first. Acceptance is
 * one event that stands for three steps (stored, checked, queued), all in
 * the request that sent the document.
 */
export function historyView(document: DocumentRow, events: (EventRow & { _id: string })[]): z.infer<typeof historyEntrySchema>[] {
  return events.flatMap((event) => {
    const data = event.data as { status: (typeof DOCUMENT_STATUSES)[number]; message?: string; error_message?: string | null; attempt?: number };
    const step = (event.type === 'document.retry' ? 'retry' : data.status) as HistoryStep;
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
    const accepted = { status: TRANSITIONS.accept.to, error_message: null, attempt: null, event: null, at: document.created_at.toISOString() };
    return [
      { ...accepted, step: 'created' as const, message: 'Stored' },
      { ...accepted, step: 'validated' as const, message: 'Passed the EN 16931 and Peppol BIS Billing 3.0 checks' },
      entry,
    ];
  });
}
