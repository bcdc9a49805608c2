import { decodeBase64 } from '../documents/attachments';
import { EXEMPT_CATEGORIES, money } from '../documents/calculate';
import { documentInputSchema, type TaxCategory } from '../documents/input';
import { parseBounded, UBL_BOUNDS } from '../xml-bounds';
import type { XmlElement } from '../xml-tree';
import { CUSTOMIZATION_ID, NS, profileIds, profileOf } from './xml';
import { documentAllowancesCharges, readLine } from './read-lines';
import { readDelivery, readParty } from './read-parties';
import type { DocumentJson, ReceivedAttachment, ReceivedUbl, StatedTotals, UblReadResult } from './received';
import { amount, implied, nonEmpty, Reading, stated, type Context } from './reading';

/**
 * A received UBL Invoice or CreditNote (Peppol BIS Billing 3.0 or EN 16931
 * core) read into the JSON a client posts to POST /v1/documents: the inverse
 * of the UBL writer (write.ts). Totals are not part of that JSON (the service computes them),
 * so the UBL's own are given beside it as stated; so are the embedded
 * attachments, decoded. What the JSON cannot hold is listed by UBL path in
 * `unmapped`, never guessed at: a value is carried as it is or named there.
 *
 * A value the UBL must have (the number, the issue date, a line's name,
 * quantity and price …) is taken as present (`!`): when a document lacks
 * one, its JSON view lacks it too and does not parse, which tells whoever
 * reads it what is missing.
 */

export type { DocumentJson, ReceivedAllowanceCharge, ReceivedAttachment, ReceivedLine, ReceivedUbl, StatedTotals, UblReadResult } from './received';

const ROOTS: Record<string, { name: string; kind: ReceivedUbl['kind'] }> = {
  [NS.Invoice]: { name: 'Invoice', kind: 'invoice' },
  [NS.CreditNote]: { name: 'CreditNote', kind: 'credit_note' },
};

export function readUbl(xml: string | Buffer): UblReadResult {
  const parsed = parseBounded(xml, UBL_BOUNDS);
  return 'root' in parsed ? readUblTree(parsed.root) : parsed;
}

/** A parsed UBL Invoice or CreditNote (its root); another root is unsupported. */
export function readUblTree(root: XmlElement): UblReadResult {
  const known = ROOTS[root.namespace];
  if (known?.name !== root.name) return { unsupported: `the root element is {${root.namespace}}${root.name}, not a UBL 2.1 Invoice or CreditNote` };
  return readDocument(new Reading(root), known.kind);
}

function readDocument(r: Reading, kind: ReceivedUbl['kind']): ReceivedUbl {
  const root = r.root;
  const isInvoice = kind === 'invoice';
  const taxTotal = mainTaxTotal(r);
  implied(r, r.one(root, 'cbc:UBLVersionID'), '2.1');
  // Peppol BIS, XRechnung or PINT A-NZ, which the view names as its profile; another specification is named.
  const customization = r.one(root, 'cbc:CustomizationID');
  const profile = profileOf(customization?.text);
  if (profile) r.understood(customization);
  else implied(r, customization, CUSTOMIZATION_ID);
  const { process, taxScheme } = profileIds(profile);
  implied(r, r.one(root, 'cbc:ProfileID'), process);
  const c: Context = { r, currency: r.text(r.one(root, 'cbc:DocumentCurrencyCode')), taxScheme, exemptions: exemptionsOf(r, taxTotal) };
  implied(r, r.one(root, isInvoice ? 'cbc:InvoiceTypeCode' : 'cbc:CreditNoteTypeCode'), isInvoice ? '380' : '381');

  const means = r.first(root, 'cac:PaymentMeans');
  const period = r.one(root, 'cac:InvoicePeriod');
  const periodStart = r.one(period, 'cbc:StartDate');
  const periodEnd = r.one(period, 'cbc:EndDate');
  const invoiceReference = r.one(r.first(root, 'cac:BillingReference'), 'cac:InvoiceDocumentReference');
  const references = additionalReferences(c);
  const totals = r.one(root, 'cac:LegalMonetaryTotal');
  const readLines = r.all(root, isInvoice ? 'cac:InvoiceLine' : 'cac:CreditNoteLine').map((line, index) => readLine(c, line, index, kind));
  const lines = readLines.map(({ line }) => line);
  const attachments = references.attachments.flatMap(({ json }) => (json ? [json] : []));

  const document: DocumentJson = stated({
    type: kind,
    profile: profile === 'peppol' ? undefined : profile,
    number: r.text(r.one(root, 'cbc:ID'))!,
    issue_date: r.text(r.one(root, 'cbc:IssueDate'))!,
    due_date: r.field(isInvoice ? r.one(root, 'cbc:DueDate') : r.one(means, 'cbc:PaymentDueDate'), ['due_date']),
    currency: c.currency!,
    buyer_reference: r.field(r.one(root, 'cbc:BuyerReference'), ['buyer_reference']),
    order_reference: r.field(r.one(root, 'cac:OrderReference/cbc:ID'), ['order_reference']),
    note: r.field(r.first(root, 'cbc:Note'), ['note']),
    invoice_reference: invoiceReference && stated({ number: r.text(r.one(invoiceReference, 'cbc:ID'))!, issue_date: r.text(r.one(invoiceReference, 'cbc:IssueDate')) }),
    // Both ends or none: the JSON view's period has both.
    period: periodStart && periodEnd ? { start: r.text(periodStart)!, end: r.text(periodEnd)! } : undefined,
    delivery: readDelivery(c),
    from: readParty(c, r.one(root, 'cac:AccountingSupplierParty/cac:Party'), 'from'),
    to: readParty(c, r.one(root, 'cac:AccountingCustomerParty/cac:Party'), 'to'),
    lines,
    ...documentAllowancesCharges(c),
    payment: nonEmpty({
      iban: r.field(r.one(means, 'cac:PayeeFinancialAccount/cbc:ID'), ['payment', 'iban']),
      bic: r.field(r.one(means, 'cac:PayeeFinancialAccount/cac:FinancialInstitutionBranch/cbc:ID'), ['payment', 'bic']),
      reference: r.field(r.one(means, 'cbc:PaymentID'), ['payment', 'reference']),
      terms: r.field(r.one(r.first(root, 'cac:PaymentTerms'), 'cbc:Note'), ['payment', 'terms']),
      means_code: r.field(r.one(means, 'cbc:PaymentMeansCode'), ['payment', 'means_code']),
      prepaid_amount: amount(c, r.one(totals, 'cbc:PrepaidAmount')),
      rounding_amount: nonZero(amount(c, r.one(totals, 'cbc:PayableRoundingAmount'))),
      mandate_reference: r.field(r.one(means, 'cac:PaymentMandate/cbc:ID'), ['payment', 'mandate_reference']),
      creditor_id: r.field(creditorId(r), ['payment', 'creditor_id']),
      debited_account: r.field(r.one(means, 'cac:PaymentMandate/cac:PayerFinancialAccount/cbc:ID'), ['payment', 'debited_account']),
    }),
    attachments: attachments.length > 0 ? attachments : undefined,
    greece: references.greece,
  });
  if (periodStart && !periodEnd) r.remark(periodStart, 'a period without an end; the JSON view takes start and end together');
  if (periodEnd && !periodStart) r.remark(periodEnd, 'a period without a start; the JSON view takes start and end together');

  const statedTotals = readTotals(c, totals, taxTotal);
  dropWhatTheSchemaRefuses(r, document);
  const lineNets = readLines.map(({ net }) => net ?? null);
  return { kind, document, stated_totals: statedTotals, stated_line_nets: lineNets, attachments: references.attachments.map(({ received }) => received), unmapped: r.unmapped() };
}

const nonZero = (value: string | undefined) => (value === undefined || money(value).isZero() ? undefined : value);

/**
 * The bank-assigned creditor identifier (BT-90): a party identification of the seller in scheme SEPA (or, where
 * the invoice names a payee, of the payee).
 */
function creditorId(r: Reading): XmlElement | undefined {
  for (const party of ['cac:PayeeParty', 'cac:AccountingSupplierParty/cac:Party']) {
    const id = r.all(r.one(r.root, party), 'cac:PartyIdentification').map((identification) => r.one(identification, 'cbc:ID')).find((candidate) => candidate?.attributes.schemeID === 'SEPA');
    if (id) {
      r.attribute(id, 'schemeID');
      return id;
    }
  }
  return undefined;
}

/** The TaxTotal in the document currency, the one with the breakdown (a second one, in the tax currency, has none: PEPPOL-EN16931-R053/R054). */
function mainTaxTotal(r: Reading): XmlElement | undefined {
  const totals = r.all(r.root, 'cac:TaxTotal');
  const main = totals.find((total) => r.all(total, 'cac:TaxSubtotal').length > 0) ?? totals[0];
  for (const other of totals.filter((total) => total !== main)) r.account(other, 'a second VAT total (in the tax currency, BT-111); the JSON view has the one in the document currency');
  return main;
}

function exemptionsOf(r: Reading, taxTotal: XmlElement | undefined): Context['exemptions'] {
  const exemptions: Context['exemptions'] = new Map();
  for (const subtotal of r.all(taxTotal, 'cac:TaxSubtotal')) {
    const category = r.one(subtotal, 'cac:TaxCategory');
    const id = r.one(category, 'cbc:ID')?.text;
    if (id && EXEMPT_CATEGORIES.has(id as TaxCategory)) {
      exemptions.set(id, { reason: r.one(category, 'cbc:TaxExemptionReason'), code: r.one(category, 'cbc:TaxExemptionReasonCode') });
    }
  }
  return exemptions;
}

function readTotals(c: Context, totals: XmlElement | undefined, taxTotal: XmlElement | undefined): StatedTotals {
  const { r } = c;
  const total = (name: string) => amount(c, r.one(totals, name)) ?? null;
  const payableRounding = total('cbc:PayableRoundingAmount');
  return {
    line_extension: total('cbc:LineExtensionAmount'),
    allowance_total: total('cbc:AllowanceTotalAmount'),
    charge_total: total('cbc:ChargeTotalAmount'),
    tax_exclusive: total('cbc:TaxExclusiveAmount'),
    tax: amount(c, r.one(taxTotal, 'cbc:TaxAmount')) ?? null,
    tax_inclusive: total('cbc:TaxInclusiveAmount'),
    prepaid: total('cbc:PrepaidAmount'),
    payable_rounding: payableRounding,
    payable: total('cbc:PayableAmount'),
    tax_breakdown: r.all(taxTotal, 'cac:TaxSubtotal').map((subtotal) => {
      const category = r.one(subtotal, 'cac:TaxCategory');
      implied(r, r.one(category, 'cac:TaxScheme/cbc:ID'), c.taxScheme);
      return {
        category: r.text(r.one(category, 'cbc:ID')) ?? null,
        rate: r.decimal(r.one(category, 'cbc:Percent')) ?? null,
        taxable: amount(c, r.one(subtotal, 'cbc:TaxableAmount')) ?? null,
        tax: amount(c, r.one(subtotal, 'cbc:TaxAmount')) ?? null,
      };
    }),
  };
}

type AttachmentJson = NonNullable<DocumentJson['attachments']>[number];

/**
 * AdditionalDocumentReference: embedded files (BG-24) become attachments
 * (in the JSON view as base64, beside it decoded); the Greek MARK and
 * invoice URL references (GR-R-004, GR-S-008) become `greece`, as the writer
 * writes them. Other references (an invoiced object, an external URI) are
 * named as unmapped.
 */
function additionalReferences(c: Context) {
  const { r } = c;
  const attachments: { json?: AttachmentJson; received: ReceivedAttachment }[] = [];
  let mark: string | undefined;
  let invoiceUrl: string | undefined;
  for (const reference of r.all(r.root, 'cac:AdditionalDocumentReference')) {
    const id = r.one(reference, 'cbc:ID');
    const description = r.one(reference, 'cbc:DocumentDescription');
    const binary = r.one(reference, 'cac:Attachment/cbc:EmbeddedDocumentBinaryObject');
    if (description?.text === '##M.AR.K##' && !mark) {
      r.understood(description);
      mark = r.text(id);
    } else if (description?.text === '##INVOICE|URL##' && !invoiceUrl) {
      r.understood(description);
      r.understood(id);
      invoiceUrl = r.field(r.one(reference, 'cac:Attachment/cac:ExternalReference/cbc:URI'), ['greece', 'invoice_url']);
    } else if (binary) {
      const attachment = readAttachment(c, binary, id, description, attachments.filter(({ json }) => json).length);
      if (attachment) attachments.push(attachment);
    }
  }
  return { attachments, greece: mark ? stated({ mark, invoice_url: invoiceUrl }) : undefined };
}

function readAttachment(c: Context, binary: XmlElement, id: XmlElement | undefined, description: XmlElement | undefined, jsonIndex: number) {
  const { r } = c;
  r.understood(binary);
  const content = decodeBase64(binary.text);
  if (!content) {
    r.remark(binary, 'the content is not base64');
    return undefined;
  }
  const filename = r.attribute(binary, 'filename') ?? null;
  const mimeCode = r.attribute(binary, 'mimeCode') ?? null;
  const received: ReceivedAttachment = stated({ id: r.text(id) ?? null, filename, mime_code: mimeCode, description: r.text(description), content });
  if (filename === null || mimeCode === null) {
    r.remark(binary, 'an embedded file without filename or mimeCode; the JSON view needs both (it is among the attachments still)');
    return { received };
  }
  if (received.description !== undefined) r.remember(['attachments', jsonIndex, 'description'], description!);
  const json: AttachmentJson = stated({ filename, mime_type: mimeCode, content: binary.text.replace(/\s+/g, ''), description: received.description });
  return { json, received };
}

/**
 * Optional values the input schema refuses (an e-mail address it does not
 * take, a text longer than it allows) are left out of the JSON view and
 * named, so the view stays one a client could post. Anything else it refuses
 * (a VAT category it does not have, a required value missing) stays: the
 * view then says what the UBL says, and does not parse.
 */
export function dropWhatTheSchemaRefuses(r: Reading, document: DocumentJson): void {
  for (;;) {
    const parsed = documentInputSchema.safeParse({ company_id: 'received', ...document });
    if (parsed.success) return;
    const dropped = parsed.error.issues.filter((issue) => {
      const source = r.takeSource(issue.path);
      if (source) r.remark(source, `${issue.message}; left out of the JSON view`);
      return source !== undefined;
    });
    if (dropped.length === 0) return;
    for (const issue of dropped) removeAt(document, issue.path);
  }
}

function removeAt(document: object, path: readonly PropertyKey[]): void {
  const parent = path.slice(0, -1).reduce<unknown>((node, key) => (node as Record<PropertyKey, unknown> | undefined)?.[key], document);
  if (parent && typeof parent === 'object') delete (parent as Record<PropertyKey, unknown>)[path.at(-1)!];
}

