/**
 * Something about an accepted document that is allowed but often a mistake: the document is sent all the same,
 * and the answer says what looked odd so a person can check it. Each code is made in one place:
 * `vat_rate_unusual` in vat-rates.ts, `duplicate_number` below.
 */
export const WARNING_CODES = ['vat_rate_unusual', 'duplicate_number'] as const;
type WarningCode = (typeof WARNING_CODES)[number];

export interface DocumentWarning {
  code: WarningCode;
  message: string;
  /** JSON path of the field it is about. */
  path: string;
}

const TYPE_NAME = { invoice: 'invoice', credit_note: 'credit note' } as const;

/** The same number for the same company and type again: the earlier document is named, since a number is meant to be used once. */
export function duplicateNumber(type: keyof typeof TYPE_NAME, number: string, earlierId: string): DocumentWarning {
  return {
    code: 'duplicate_number',
    path: 'number',
    message:
      `This company already sent ${TYPE_NAME[type]} number ${number} (${earlierId}); a number identifies one document. ` +
      'If this is a retry of that request, send it with the same idempotency key instead: it then answers the first document and sends nothing twice.',
  };
}
