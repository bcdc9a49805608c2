import {
  contentProblems,
  RESPONSE_CODES,
  STATUS_ACTIONS,
  STATUS_REASONS,
  type InvoiceResponseContent,
} from '../../domain/peppol/invoice-response';
import { z } from '../contract/openapi';
import { text } from '../contract/schemas';
import { invalidField } from '../http/validation';

/**
 * The body of an Invoice Response, one schema for every route that takes
 * one (our company answering a received document; the sandbox's simulated
 * buyer), and the one reading of it: the T111 rules the official validator
 * would apply are checked first and refused per field, naming the rule.
 */

const clarification = (codes: Record<string, string>) =>
  z
    .object({
      code: z.enum(Object.keys(codes) as [string, ...string[]]),
      text: text(500).nullable().optional().openapi({ description: 'Free text beside the code' }),
    })
    .strict();

export const invoiceResponseRequestSchema = z
  .object({
    code: z.enum(RESPONSE_CODES).openapi({
      description:
        'AB acknowledged, IP in process, UQ under query, CA conditionally accepted, RE rejected, AP accepted, PD paid. RE and PD are final (OP-BR111-R004); after AP only PD (R005); codes advance in this order (R012)',
    }),
    reasons: z.array(clarification(STATUS_REASONS)).max(20).optional().openapi({
      description:
        'OPStatusReason codes; UQ, CA and RE need at least one (PEPPOL-T111-R001); PPD (partially paid) only with PD, and with a text',
    }),
    actions: z
      .array(clarification(STATUS_ACTIONS))
      .max(20)
      .optional()
      .openapi({ description: 'OPStatusAction codes: what the seller is asked to do' }),
    note: text(1000).nullable().optional(),
  })
  .strict()
  .openapi('InvoiceResponseRequest', {
    example: {
      code: 'RE',
      reasons: [{ code: 'REF', text: 'Our order number is missing' }],
      actions: [{ code: 'NIN', text: null }],
      note: 'Please send a new invoice with our order number.',
    },
  });

/** The content of a valid body; 400 `invalid_field` naming the field and the T111 rule otherwise. */
export function invoiceResponseContent(body: z.infer<typeof invoiceResponseRequestSchema>): InvoiceResponseContent {
  const content = {
    code: body.code,
    reasons: (body.reasons ?? []).map(({ code, text: reason }) => ({ code, text: reason ?? null })),
    actions: (body.actions ?? []).map(({ code, text: action }) => ({ code, text: action ?? null })),
    note: body.note ?? null,
  } as InvoiceResponseContent;
  const [problem] = contentProblems(content);
  if (problem) throw invalidField(problem.field, `${problem.field}: ${problem.message} (${problem.rule}).`);
  return content;
}
