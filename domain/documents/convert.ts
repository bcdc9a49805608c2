import { termsOfInput } from '../terms/from-input';
import { writeUbl } from '../ubl/write';
import type { UblAttachment } from '../ubl/xml';
import { calculate, type CalculatedDocument } from './calculate';
import type { DocumentInput } from './input';
import { checkDocument, type Violation } from './rules';
import { isNotSubjectToVat } from './vat-rules';

/** What the sending company contributes to a document (its own fields as stored). */
export interface SendingCompany {
  name: string;
  country: string;
  tax_id?: string | null | undefined;
  company_registration_id?: string | null | undefined;
  email?: string | null | undefined;
  iban?: string | null | undefined;
  peppol_id?: string | null | undefined;
  address?:
    | { street?: string | null | undefined; city?: string | null | undefined; postal_code?: string | null | undefined }
    | null
    | undefined;
}

const orUndefined = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

/**
 * Fields missing from `from` come from the company; so does the payee account
 * when none is sent. The company's VAT id is not used for a document not
 * subject to VAT (category O only), which states none (BR-O-02…04): the
 * company is not VAT-liable for what it invoices there. A VAT id sent in
 * `from` itself is kept, and refused by the checks.
 * @internal
 */
export function withCompanyDefaults(document: DocumentInput, company: SendingCompany): DocumentInput {
  const from = document.from;
  const companyTaxId = isNotSubjectToVat(document) ? undefined : orUndefined(company.tax_id);
  const companyAddress = {
    street: orUndefined(company.address?.street),
    city: orUndefined(company.address?.city),
    postal_code: orUndefined(company.address?.postal_code),
    country: company.country,
  };
  const iban = document.payment?.iban ?? orUndefined(company.iban);
  return {
    ...document,
    from: {
      name: from.name ?? company.name,
      tax_id: from.tax_id ?? companyTaxId,
      contact_name: from.contact_name,
      phone: from.phone,
      company_registration_id: from.company_registration_id ?? orUndefined(company.company_registration_id),
      peppol_id: from.peppol_id ?? orUndefined(company.peppol_id),
      email: from.email ?? orUndefined(company.email),
      address: from.address ?? companyAddress,
    },
    ...((document.payment || iban) && { payment: { ...document.payment, ...(iban && { iban }) } }),
  };
}

export type Conversion =
  | { ok: true; document: DocumentInput; calculated: CalculatedDocument; ubl: string }
  | { ok: false; violations: Violation[] };

/** Checks meaning, computes the totals and writes the UBL; every problem is reported at once. */
export function convertDocument(
  input: DocumentInput,
  company: SendingCompany,
  attachmentIds: string[] = [],
): Conversion {
  const document = withCompanyDefaults(input, company);
  const violations = checkDocument(document);
  if (violations.length > 0) return { ok: false, violations };
  const calculated = calculate(document);
  const attachments: UblAttachment[] = (document.attachments ?? []).map((attachment, index) => ({
    ...attachment,
    id: attachmentIds[index] ?? `ATT-${index + 1}`,
  }));
  return { ok: true, document, calculated, ubl: writeUbl(termsOfInput(document, calculated, attachments)) };
}
