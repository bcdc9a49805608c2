import { formatAmount, money, type CalculatedDocument, type TaxTreatment } from '../documents/calculate';
import type { DocumentInput, PartyInput } from '../documents/input';
import { paymentMeansCode, paymentTermsNote } from '../documents/payment';
import { profileIds, type UblAttachment } from '../ubl/xml';
import type { TermAllowanceCharge, TermAttachment, TermDocument } from './document';

/**
 * A posted document, checked and calculated, as its terms: what the
 * service states besides what the client sent. Each choice of what to
 * state is made here, once for every syntax:
 * - the totals the rules want: an allowance (charge) total whenever there
 *   is an allowance (charge), even one of 0 (BR-CO-11, BR-CO-12); a paid
 *   and a rounding amount only when not 0;
 * - payment means (BT-81) when the document gives payment instructions
 *   (payment.ts), and the account's institution (BT-86) only with an account;
 * - category O has no rate (BR-O-05…07) and its breakdown needs none
 *   (BR-48), but between German parties every breakdown has one (DE-R-014):
 *   there the breakdown of O says 0, its items still say nothing;
 * - for a Greek seller, the Greek MARK and invoice URL as the supporting
 *   documents the Greek rules look for (GR-R-004, GR-S-008), before the
 *   attachments, and each party's name as its trading name too (GR-R-002,
 *   GR-R-005); elsewhere a trading name that only repeats the legal name
 *   is left out, so no viewer shows it as a different one.
 */

const taxOf = (tax: TaxTreatment) => ({ tax_category: tax.category, tax_rate: tax.rate ?? undefined });

function partyTerms(input: PartyInput, withTradingName: boolean): TermDocument['from'] {
  return {
    name: input.name,
    trading_name: withTradingName ? input.name : undefined,
    peppol_id: input.peppol_id,
    tax_id: input.tax_id,
    company_registration_id: input.company_registration_id,
    identifier: input.identifier,
    identifier_scheme: input.identifier && input.identifier_scheme,
    contact_name: input.contact_name,
    phone: input.phone,
    email: input.email,
    address: input.address,
  };
}

function paymentTerms(document: DocumentInput): TermDocument['payment'] {
  const payment = document.payment;
  const meansCode = paymentMeansCode(document);
  return {
    terms: payment?.terms && paymentTermsNote(payment.terms),
    creditor_id: payment?.creditor_id,
    ...(meansCode !== undefined && {
      means_code: meansCode,
      reference: payment?.reference,
      iban: payment?.iban,
      bic: payment?.iban ? payment.bic : undefined,
      mandate_reference: payment?.mandate_reference,
      debited_account: payment?.debited_account,
    }),
  };
}

function greekReferences(document: DocumentInput): TermAttachment[] {
  if (!document.greece) return [];
  const { mark, invoice_url: url } = document.greece;
  return [
    { id: mark, description: '##M.AR.K##' },
    ...(url ? [{ id: 'INVOICE-URL', description: '##INVOICE|URL##', uri: url }] : []),
  ];
}

function totalsOf(calculated: CalculatedDocument): TermDocument['totals'] {
  const totals = calculated.totals;
  const has = (isCharge: boolean) => calculated.allowancesCharges.some((entry) => entry.isCharge === isCharge);
  return {
    line_extension: formatAmount(totals.lineExtension),
    tax_exclusive: formatAmount(totals.taxExclusive),
    tax: formatAmount(totals.tax),
    tax_inclusive: formatAmount(totals.taxInclusive),
    allowance_total: has(false) || !totals.allowanceTotal.isZero() ? formatAmount(totals.allowanceTotal) : undefined,
    charge_total: has(true) || !totals.chargeTotal.isZero() ? formatAmount(totals.chargeTotal) : undefined,
    prepaid: totals.prepaid.isZero() ? undefined : formatAmount(totals.prepaid),
    payable_rounding: totals.rounding.isZero() ? undefined : formatAmount(totals.rounding),
    payable: formatAmount(totals.payable),
  };
}

const lineAllowancesCharges = (
  entries: { amount: string; reason?: string | undefined; reason_code?: string | undefined }[] | undefined,
): TermAllowanceCharge[] | undefined =>
  entries?.map((entry) => ({
    amount: formatAmount(money(entry.amount)),
    reason: entry.reason,
    reason_code: entry.reason_code,
  }));

export function termsOfInput(
  document: DocumentInput,
  calculated: CalculatedDocument,
  attachments: UblAttachment[] = [],
): TermDocument {
  const germanDomestic = document.from.address?.country === 'DE' && document.to.address?.country === 'DE';
  const greekSeller = document.from.address?.country === 'GR';
  const documentLevel = (isCharge: boolean) =>
    calculated.allowancesCharges
      .filter((entry) => entry.isCharge === isCharge)
      .map((entry): TermAllowanceCharge => ({
        amount: formatAmount(entry.amount),
        reason: entry.input.reason,
        reason_code: entry.input.reason_code,
        ...taxOf(entry.tax),
      }));
  const references = [
    ...greekReferences(document),
    ...attachments.map(({ id, filename, mime_type: mimeType, content, description }) => ({
      id,
      filename,
      mime_type: mimeType,
      content,
      description,
    })),
  ];
  return {
    ...profileIds(document.profile),
    type: document.type,
    type_code: document.type === 'invoice' ? '380' : '381',
    number: document.number,
    issue_date: document.issue_date,
    due_date: document.due_date,
    currency: document.currency,
    note: document.note,
    buyer_reference: document.buyer_reference,
    order_reference: document.order_reference,
    invoice_reference: document.invoice_reference,
    period: document.period,
    delivery: document.delivery,
    from: partyTerms(document.from, greekSeller),
    to: partyTerms(document.to, greekSeller),
    payment: paymentTerms(document),
    allowances: documentLevel(false),
    charges: documentLevel(true),
    attachments: references,
    totals: totalsOf(calculated),
    vat_breakdown: calculated.taxGroups.map((group) => ({
      category: group.category,
      rate: germanDomestic && group.rate === null ? '0' : (group.rate ?? undefined),
      taxable: formatAmount(group.taxable),
      tax: formatAmount(group.tax),
      exemption_reason: group.exemptionReason,
      exemption_reason_code: group.exemptionCode,
    })),
    lines: calculated.lines.map((line, index) => ({
      id: String(index + 1),
      note: line.input.note,
      quantity: line.input.quantity,
      unit: line.input.unit,
      net: formatAmount(line.net),
      description: line.input.description,
      item_id: line.input.item_id,
      ...taxOf(line.tax),
      unit_price: line.input.unit_price,
      allowances: lineAllowancesCharges(line.input.allowances),
      charges: lineAllowancesCharges(line.input.charges),
    })),
  };
}
