import { MLS_CODES, MLS_REASONS } from '../../../domain/ubl/application-response';
import { RESPONSE_CODES, STATUS_ACTIONS, STATUS_REASONS } from '../../../domain/peppol/invoice-response';
import type { DocumentRow } from '../../../store/documents';
import { z } from '../openapi';

/**
 * The replies a sent document gets, in the document view and in their
 * events: the buyer's Invoice Response (Peppol BIS Invoice Response 3) and
 * the receiving access point's Message Level Status (Peppol MLS 1.0). Neither
 * is the delivery `status`.
 */

const clarification = (codes: Record<string, string>, what: string) =>
  z.object({
    code: z.string().openapi({
      description: `${what} code (${Object.entries(codes)
        .map(([code, name]) => `\`${code}\` ${name}`)
        .join(', ')}); a received code outside the list is kept as it came`,
    }),
    text: z.string().nullable(),
  });

export const statusReasonSchema = clarification(STATUS_REASONS, 'Status reason (OPStatusReason)').openapi(
  'InvoiceResponseReason',
);
export const statusActionSchema = clarification(STATUS_ACTIONS, 'Requested action (OPStatusAction)').openapi(
  'InvoiceResponseAction',
);

const responseCode = z.enum(RESPONSE_CODES).openapi({
  description:
    'UNCL4343 subset T111: `AB` acknowledged, `IP` in process, `UQ` under query, `CA` conditionally accepted, `RE` rejected, `AP` accepted, `PD` paid',
});

export const documentResponseSchema = z
  .object({
    response_id: z.string().openapi({ description: 'The Invoice Response' }),
    code: responseCode,
    reasons: z.array(statusReasonSchema),
    actions: z.array(statusActionSchema),
    note: z.string().nullable(),
    received_at: z
      .string()
      .nullable()
      .openapi({ format: 'date-time', description: 'When it arrived from the buyer; null for one our company gave' }),
  })
  .openapi('DocumentResponse');

const mlsReasonSchema = z
  .object({
    code: z.string().openapi({
      description: `${MLS_REASONS.join(', ')}: business rule violation (fatal), business rule warning, failed delivery, syntax violation`,
    }),
    description: z.string(),
    line_id: z.string().openapi({ description: 'Where in the document, or `NA`' }),
  })
  .openapi('MessageLevelStatusReason');

export const documentMlsSchema = z
  .object({
    code: z.enum(MLS_CODES).openapi({
      description:
        '`AP` accepted, `AB` acknowledged (received, processing goes on), `RE` rejected by the receiving access point',
    }),
    reasons: z.array(mlsReasonSchema),
    description: z.string().nullable(),
    received_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('DocumentMessageLevelStatus');

export function responseView(response: DocumentRow['response']): z.infer<typeof documentResponseSchema> | null {
  if (!response) return null;
  return {
    response_id: response.response_id,
    code: response.code as z.infer<typeof responseCode>,
    reasons: response.reasons.map((reason) => ({ code: reason.code ?? '', text: reason.text ?? null })),
    actions: response.actions.map((action) => ({ code: action.code ?? '', text: action.text ?? null })),
    note: response.note ?? null,
    received_at: response.received_at?.toISOString() ?? null,
  };
}

export function mlsView(mls: DocumentRow['mls']): z.infer<typeof documentMlsSchema> | null {
  if (!mls) return null;
  return {
    code: mls.code,
    reasons: mls.reasons.map((reason) => ({
      code: reason.code ?? '',
      description: reason.description ?? '',
      line_id: reason.line_id ?? '',
    })),
    description: mls.description ?? null,
    received_at: mls.received_at.toISOString(),
  };
}

export const responseReceivedDataSchema = z
  .object({
    document_id: z.string().nullable().openapi({
      description:
        "The sent document answered; null when the response matched none of the company's sent documents (it is kept: `GET /v1/unmatched-responses`)",
    }),
    company_id: z.string(),
    response_id: z.string(),
    matched: z.boolean(),
    status: z
      .string()
      .nullable()
      .openapi({ description: "The document's delivery status, which a response does not change" }),
    number: z.string().openapi({ description: 'The invoice or credit note number the response names' }),
    code: responseCode,
    reasons: z.array(statusReasonSchema),
    actions: z.array(statusActionSchema),
    note: z.string().nullable(),
    sender_id: z.string().nullable().openapi({ description: "The buyer's Peppol participant id" }),
    message: z.string(),
  })
  .openapi('DocumentResponseReceivedData');

export const mlsReceivedDataSchema = z
  .object({
    document_id: z.string(),
    company_id: z.string(),
    status: z.string().openapi({ description: "The document's delivery status, which an MLS does not change" }),
    number: z.string(),
    code: z.enum(MLS_CODES),
    reasons: z.array(mlsReasonSchema),
    description: z.string().nullable(),
    message: z.string(),
  })
  .openapi('DocumentMlsReceivedData');
