/**
 * Peppol BIS Invoice Response 3 (transaction T111): the buyer's business
 * answer to an invoice or credit note, as codes and the process rules
 * OP-BR111 (poacc-upgrade-3, guides/profiles/63-invoiceresponse). A
 * response says nothing about delivery (that is the document's `status` and
 * the Message Level Status); it is what the buyer did with the document.
 */

/** UNCL4343 subset T111, in the order OP-BR111-R012 says a document's status advances. */
export const RESPONSE_CODES = ['AB', 'IP', 'UQ', 'CA', 'RE', 'AP', 'PD'] as const;
export type ResponseCode = (typeof RESPONSE_CODES)[number];

export const RESPONSE_CODE_NAMES: Record<ResponseCode, string> = {
  AB: 'Message acknowledgement',
  IP: 'In process',
  UQ: 'Under query',
  CA: 'Conditionally accepted',
  RE: 'Rejected',
  AP: 'Accepted',
  PD: 'Paid',
};

/** Code list OPStatusReason: why the buyer gave the status. */
export const STATUS_REASONS = {
  NON: 'No issue',
  REF: 'References incorrect',
  LEG: 'Legal information incorrect',
  REC: 'Receiver unknown',
  QUA: 'Item quality insufficient',
  DEL: 'Delivery issues',
  PRI: 'Prices incorrect',
  QTY: 'Quantity incorrect',
  ITM: 'Items incorrect',
  PAY: 'Payment terms incorrect',
  UNR: 'Not recognized',
  FIN: 'Finance incorrect',
  PPD: 'Partially paid',
  OTH: 'Other',
} as const;
export type StatusReason = keyof typeof STATUS_REASONS;

/** Code list OPStatusAction: what the buyer asks the seller to do. */
export const STATUS_ACTIONS = {
  NOA: 'No action required',
  PIN: 'Provide information',
  NIN: 'Issue new invoice',
  CNF: 'Credit fully',
  CNP: 'Credit partially',
  CNA: 'Credit the amount',
  OTH: 'Other',
} as const;
export type StatusAction = keyof typeof STATUS_ACTIONS;

export interface Clarification<Code extends string = string> {
  code: Code;
  /** Free text beside the code (cbc:StatusReason). */
  text: string | null;
}

/** What a buyer says about one invoice: one status (OP-BR111-R002) with its clarifications. */
export interface InvoiceResponseContent {
  code: ResponseCode;
  reasons: Clarification<StatusReason>[];
  actions: Clarification<StatusAction>[];
  note: string | null;
}

/** Codes after which the seller expects nothing more (OP-BR111-R004). */
const FINAL_CODES: readonly ResponseCode[] = ['RE', 'PD'];

/** Statuses that need a clarification (status codes table, "Clarification required"; PEPPOL-T111-R001 wants a reason code). */
const NEEDS_REASON: readonly ResponseCode[] = ['UQ', 'CA', 'RE'];

export interface ContentProblem {
  /** The field of the request body, e.g. `reasons` or `reasons[0].text`. */
  field: string;
  /** The rule broken, as the specification names it. */
  rule: string;
  message: string;
}

/**
 * What the official T111 rules would refuse in a response, said before it is
 * built so the caller learns it per field (the validator still judges the
 * UBL afterwards).
 */
export function contentProblems(content: InvoiceResponseContent): ContentProblem[] {
  const problems: ContentProblem[] = [];
  if (NEEDS_REASON.includes(content.code) && content.reasons.length === 0) {
    problems.push({
      field: 'reasons',
      rule: 'PEPPOL-T111-R001',
      message: `A response with code ${content.code} (${RESPONSE_CODE_NAMES[content.code]}) must give at least one status reason`,
    });
  }
  content.reasons.forEach((reason, index) => {
    if (reason.code === 'PPD' && content.code !== 'PD') {
      problems.push({
        field: `reasons[${index}].code`,
        rule: 'PEPPOL-T111-R005',
        message: 'Status reason PPD (partially paid) is only for code PD',
      });
    }
    if (reason.code === 'PPD' && !reason.text) {
      problems.push({
        field: `reasons[${index}].text`,
        rule: 'PEPPOL-T111-R004',
        message: 'Status reason PPD (partially paid) needs a text saying what was paid',
      });
    }
  });
  return problems;
}

/** Why `next` may not follow the responses already given (oldest first), naming the process rule; undefined when it may. */
export function followUpRefusal(
  given: readonly ResponseCode[],
  next: ResponseCode,
): { rule: string; message: string } | undefined {
  const last = given.at(-1);
  if (!last) return undefined;
  if (FINAL_CODES.includes(last)) {
    return {
      rule: 'OP-BR111-R004',
      message: `The document was given the final status ${last} (${RESPONSE_CODE_NAMES[last]}); no further Invoice Response may be sent for it`,
    };
  }
  if (last === 'AP' && next !== 'PD') {
    return {
      rule: 'OP-BR111-R005',
      message: `The document was given status AP (Accepted), which may only be followed by PD (Paid), not ${next}`,
    };
  }
  if (RESPONSE_CODES.indexOf(next) < RESPONSE_CODES.indexOf(last)) {
    return {
      rule: 'OP-BR111-R012',
      message: `A document's status advances in the order ${RESPONSE_CODES.join(', ')}; ${next} (${RESPONSE_CODE_NAMES[next]}) cannot follow ${last} (${RESPONSE_CODE_NAMES[last]})`,
    };
  }
  return undefined;
}
