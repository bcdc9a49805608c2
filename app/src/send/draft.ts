import type { Schemas } from '../api';

/**
 * What the send form holds: every field as the person typed it (text), and the request it makes. Empty fields
 * are left out of the request, so the API names what is missing rather than what is blank.
 */

export interface LineDraft {
  description: string;
  quantity: string;
  unit_price: string;
  tax_rate: string;
}

export interface Draft {
  type: 'invoice' | 'credit_note';
  number: string;
  issue_date: string;
  due_date: string;
  currency: string;
  buyer_reference: string;
  corrects: string;
  to: {
    name: string;
    peppol_id: string;
    tax_id: string;
    email: string;
    street: string;
    city: string;
    postal_code: string;
    country: string;
  };
  lines: LineDraft[];
}

export const emptyLine = (): LineDraft => ({ description: '', quantity: '1', unit_price: '', tax_rate: '21' });

export function emptyDraft(today: string): Draft {
  return {
    type: 'invoice',
    number: '',
    issue_date: today,
    due_date: '',
    currency: 'EUR',
    buyer_reference: '',
    corrects: '',
    to: { name: '', peppol_id: '', tax_id: '', email: '', street: '', city: '', postal_code: '', country: '' },
    lines: [emptyLine()],
  };
}

/** The fields of `fields` that hold text, trimmed; the others left out. */
function filled<T extends { [key in keyof T]: string }>(fields: T): Partial<T> {
  return Object.fromEntries(
    Object.entries<string>(fields).flatMap(([key, value]) => (value.trim() ? [[key, value.trim()]] : [])),
  ) as Partial<T>;
}

export function requestOf(draft: Draft, companyId: string): Schemas['DocumentRequest'] {
  const { street, city, postal_code, country, ...party } = draft.to;
  const address = filled({ street, city, postal_code, country: country.toUpperCase() });
  const top = filled({ due_date: draft.due_date, buyer_reference: draft.buyer_reference });
  return {
    company_id: companyId,
    type: draft.type,
    number: draft.number.trim(),
    issue_date: draft.issue_date,
    currency: draft.currency.trim().toUpperCase(),
    ...top,
    ...(draft.type === 'credit_note' &&
      draft.corrects.trim() && { invoice_reference: { number: draft.corrects.trim() } }),
    to: { ...filled(party), ...(Object.keys(address).length > 0 && { address: { country: '', ...address } }) },
    lines: draft.lines.map((line) => ({
      ...filled(line),
      description: line.description.trim(),
      quantity: line.quantity.trim(),
      unit_price: line.unit_price.trim(),
    })),
  };
}

/** The form field a violation's JSON path names (`to.address.city` is the buyer's city field), for marking it. */
export function fieldOf(path: string): string {
  return path.replace(/^to\.address\./, 'to.');
}
