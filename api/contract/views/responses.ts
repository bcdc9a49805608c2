import { RESPONSE_CODES, STATUS_ACTIONS, STATUS_REASONS } from '../../../domain/peppol/invoice-response';
import { responseContent, type InvoiceResponse } from '../../../services/replies/invoice-responses';
import { z } from '../openapi';

const clarificationView = (list: string, codes: Record<string, string>) =>
  z.object({
    code: z.enum(Object.keys(codes) as [string, ...string[]]).openapi({
      description: `Code list ${list}: ${Object.entries(codes)
        .map(([code, name]) => `${code} ${name}`)
        .join(', ')}`,
    }),
    text: z.string().nullable().openapi({ description: 'Free text beside the code' }),
  });

export const invoiceResponseSchema = z
  .object({
    id: z.string().openapi({ example: 'rsp_0mhx3k2a1bQ8sV7yT2nR4kLp' }),
    document_id: z
      .string()
      .nullable()
      .openapi({ description: 'The document answered; null for a received response no document matched' }),
    direction: z.enum(['sent', 'received']).openapi({
      description: '`sent`: our company answered a received document; `received`: the buyer answered one we sent',
    }),
    code: z.enum(RESPONSE_CODES).openapi({
      description:
        'UNCL4343 subset T111: AB acknowledged, IP in process, UQ under query, CA conditionally accepted, RE rejected, AP accepted, PD paid',
    }),
    reasons: z.array(clarificationView('OPStatusReason', STATUS_REASONS)),
    actions: z.array(clarificationView('OPStatusAction', STATUS_ACTIONS)),
    note: z.string().nullable(),
    status: z.enum(['queued', 'sent', 'failed', 'received', 'refused']).openapi({
      description:
        "A sent response moves `queued → sent | failed`; a received one is `received`, or `refused` when the process rules (OP-BR111, e.g. nothing after RE or PD) forbid it after the document's response: kept, but not the document's `response`",
    }),
    sender_id: z
      .string()
      .nullable()
      .openapi({ description: 'Participant id of the party that answered', example: '0208:0987654394' }),
    receiver_id: z
      .string()
      .nullable()
      .openapi({ description: 'Participant id of the party answered (the seller)', example: '0208:0123456749' }),
    error_message: z
      .string()
      .nullable()
      .openapi({ description: 'Why a sent response failed, or the rule a refused received one breaks' }),
    created_at: z.string().openapi({ format: 'date-time' }),
    updated_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('InvoiceResponse');

export function invoiceResponseView(row: InvoiceResponse): z.infer<typeof invoiceResponseSchema> {
  return {
    id: row._id,
    document_id: row.document_id ?? null,
    direction: row.direction,
    ...responseContent(row),
    status: row.status,
    sender_id: row.sender_id ?? null,
    receiver_id: row.receiver_id ?? null,
    error_message: row.error_message ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
