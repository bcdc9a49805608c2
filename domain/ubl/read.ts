import type { z } from 'zod';

import { decodeBase64 } from '../documents/attachments';
import { EXEMPT_CATEGORIES, money, round2, type Amount } from '../documents/calculate';
import { documentInputSchema, type TaxCategory } from '../documents/input';
import { legalIdScheme } from '../documents/legal-id';
import { checkXmlBounds, UBL_BOUNDS } from '../xml-bounds';
import { parseXml, XmlError, type XmlElement } from '../xml-tree';
import { CUSTOMIZATION_ID, NS, PROFILE_ID } from './build';
import { Reading, type JsonPath } from './reading';

/**
 * A received UBL Invoice or CreditNote (Peppol BIS Billing 3.0 or EN 16931
 * core) read into the JSON a client posts to POST /v1/documents: the inverse
 * of build.ts. Totals are not part of that JSON (the service computes them),
 * so the UBL's own are given beside it as stated; so are the embedded
 * attachments, decoded. What the JSON cannot hold is listed by UBL path in
 * `unmapped`, never guessed at: a value is carried as it is or named there.
 */

type DocumentRequest = z.input<typeof documentInputSchema>;
type RequestAllowanceCharge = NonNullable<DocumentRequest['allowances']>[number];
type Party = NonNullable<DocumentRequest['from']>;
/** A VAT category as the UBL states it: UBL has codes the input does not take (B, Italian split payment), which its schema then refuses. */
type StatedCategory<T> = Omit<T, 'tax_category'> & { tax_category?: TaxCategory | (string & {}) };
export type ReceivedLine = StatedCategory<DocumentRequest['lines'][number]>;
export type ReceivedAllowanceCharge = StatedCategory<RequestAllowanceCharge>;
export type DocumentJson = Omit<DocumentRequest, 'company_id' | 'from' | 'lines' | 'allowances' | 'charges'> & {
  /** Always there: a received document names its seller (the input defaults it from the sending company). */
  from: Party;
  lines: ReceivedLine[];
  allowances?: ReceivedAllowanceCharge[];
  charges?: ReceivedAllowanceCharge[];
};
type LineAllowanceCharge = NonNullable<ReceivedLine['allowances']>[number];

/** Amounts as the UBL states them (plain decimal strings); null where it states none. */
export interface StatedTotals {
  line_extension: string | null;
  allowance_total: string | null;
  charge_total: string | null;
  tax_exclusive: string | null;
  /** The VAT total in the document currency. */
  tax: string | null;
  tax_inclusive: string | null;
  prepaid: string | null;
  payable_rounding: string | null;
  payable: string | null;
  tax_breakdown: { category: string | null; rate: string | null; taxable: string | null; tax: string | null }[];
}

export interface ReceivedAttachment {
  id: string | null;
  filename: string | null;
  mime_code: string | null;
  description?: string;
  content: Buffer;
}

export interface ReceivedUbl {
  kind: 'invoice' | 'credit_note';
  /** The JSON a client could post (without company_id). */
  document: DocumentJson;
  stated_totals: StatedTotals;
  attachments: ReceivedAttachment[];
  /** What the JSON view does not carry, by UBL path (with the reason where there is one). */
  unmapped: string[];
}

export type UblReadResult = ReceivedUbl | { unsupported: string };

const ROOTS: Record<string, { name: string; kind: ReceivedUbl['kind'] }> = {
  [NS.Invoice]: { name: 'Invoice', kind: 'invoice' },
  [NS.CreditNote]: { name: 'CreditNote', kind: 'credit_note' },
};

export function readUbl(xml: string | Buffer): UblReadResult {
  const text = (typeof xml === 'string' ? xml : xml.toString('utf8')).replace(/^\uFEFF/, '');
  const bounds = checkXmlBounds(text, UBL_BOUNDS);
  if (!bounds.ok) {
    return bounds.problem === 'not_well_formed'
      ? { unsupported: `not well-formed XML: ${bounds.message}` }
      : { unsupported: `the XML is ${bounds.problem === 'too_deep' ? 'nested deeper than' : 'made of more elements than'} ${bounds.limit} (line ${bounds.line}, column ${bounds.column})` };
  }
  let root: XmlElement;
  try {
    root = parseXml(text);
  } catch (err) {
    if (err instanceof XmlError) return { unsupported: `not well-formed XML: ${err.message}` };
    throw err;
  }
  const known = ROOTS[root.namespace];
  if (known?.name !== root.name) return { unsupported: `the root element is {${root.namespace}}${root.name}, not a UBL 2.1 Invoice or CreditNote` };
  return readDocument(new Reading(root), known.kind);
}

/** What every part of the reading needs. */
interface Context {
  r: Reading;
  currency: string | undefined;
  /** The breakdown's exemption reason and code per exempt category, which the JSON view puts on each item of it (each such category has one subtotal: BR-E-01, BR-AE-01 …). */
  exemptions: Map<string, { reason?: XmlElement | undefined; code?: XmlElement | undefined }>;
}

/*
 * A value the UBL must have (the number, the issue date, a line's name,
 * quantity and price …) is taken as present (`!`): when a document lacks
 * one, its JSON view lacks it too and does not parse, which tells whoever
 * reads it what is missing.
 */

/** Drops the keys whose value is undefined, so the JSON view holds only what the UBL says. */
function stated<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}

const nonEmpty = <T extends object>(value: T): T | undefined => (Object.keys(stated(value)).length > 0 ? stated(value) : undefined);

function amount(c: Context, element: XmlElement | undefined): string | undefined {
  const currency = c.r.attribute(element, 'currencyID');
  if (element && currency !== undefined && currency !== c.currency) c.r.remark(element, `an amount in ${currency}, not in the document currency ${c.currency}`);
  return c.r.decimal(element);
}

function readDocument(r: Reading, kind: ReceivedUbl['kind']): ReceivedUbl {
  const root = r.root;
  const isInvoice = kind === 'invoice';
  const taxTotal = mainTaxTotal(r);
  const c: Context = { r, currency: r.text(r.one(root, 'cbc:DocumentCurrencyCode')), exemptions: exemptionsOf(r, taxTotal) };
  implied(r, r.one(root, 'cbc:UBLVersionID'), '2.1');
  implied(r, r.one(root, 'cbc:CustomizationID'), CUSTOMIZATION_ID);
  implied(r, r.one(root, 'cbc:ProfileID'), PROFILE_ID);
  implied(r, r.one(root, isInvoice ? 'cbc:InvoiceTypeCode' : 'cbc:CreditNoteTypeCode'), isInvoice ? '380' : '381');

  const means = r.first(root, 'cac:PaymentMeans');
  const period = r.one(root, 'cac:InvoicePeriod');
  const periodStart = r.one(period, 'cbc:StartDate');
  const periodEnd = r.one(period, 'cbc:EndDate');
  const invoiceReference = r.one(r.first(root, 'cac:BillingReference'), 'cac:InvoiceDocumentReference');
  const references = additionalReferences(c);
  const totals = r.one(root, 'cac:LegalMonetaryTotal');
  const lines = r.all(root, isInvoice ? 'cac:InvoiceLine' : 'cac:CreditNoteLine').map((line, index) => readLine(c, line, index, kind));
  const attachments = references.attachments.flatMap(({ json }) => (json ? [json] : []));

  const document: DocumentJson = stated({
    type: kind,
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
    }),
    attachments: attachments.length > 0 ? attachments : undefined,
    greece: references.greece,
  });
  if (periodStart && !periodEnd) r.remark(periodStart, 'a period without an end; the JSON view takes start and end together');
  if (periodEnd && !periodStart) r.remark(periodEnd, 'a period without a start; the JSON view takes start and end together');

  const statedTotals = readTotals(c, totals, taxTotal);
  dropWhatTheSchemaRefuses(r, document);
  return { kind, document, stated_totals: statedTotals, attachments: references.attachments.map(({ received }) => received), unmapped: r.unmapped() };
}

/** A value the JSON view implies (its documents are Peppol BIS Billing 3.0 of type 380 or 381, its tax VAT); another one is named. */
function implied(r: Reading, element: XmlElement | undefined, value: string): void {
  if (!element) return;
  r.understood(element);
  if (element.text !== value) r.remark(element, `${element.text}, where the JSON view implies ${value}`);
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
  const rounding = r.one(totals, 'cbc:PayableRoundingAmount');
  const payableRounding = total('cbc:PayableRoundingAmount');
  if (rounding && payableRounding !== null && !money(payableRounding).isZero()) {
    r.remark(rounding, `${payableRounding}: the JSON view has no rounding amount, so its payable amount differs by that much`);
  }
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
      implied(r, r.one(category, 'cac:TaxScheme/cbc:ID'), 'VAT');
      return {
        category: r.text(r.one(category, 'cbc:ID')) ?? null,
        rate: r.decimal(r.one(category, 'cbc:Percent')) ?? null,
        taxable: amount(c, r.one(subtotal, 'cbc:TaxableAmount')) ?? null,
        tax: amount(c, r.one(subtotal, 'cbc:TaxAmount')) ?? null,
      };
    }),
  };
}

/** Street, city, postal code and country of a PostalAddress or deliver-to Address. */
function readAddress(c: Context, address: XmlElement | undefined, at: JsonPath) {
  const { r } = c;
  return {
    street: r.field(r.one(address, 'cbc:StreetName'), [...at, 'street']),
    city: r.field(r.one(address, 'cbc:CityName'), [...at, 'city']),
    postal_code: r.field(r.one(address, 'cbc:PostalZone'), [...at, 'postal_code']),
    country: r.text(r.one(address, 'cac:Country/cbc:IdentificationCode')),
  };
}

function readParty(c: Context, party: XmlElement | undefined, at: 'from' | 'to'): Party {
  const { r } = c;
  const endpoint = r.one(party, 'cbc:EndpointID');
  const scheme = r.attribute(endpoint, 'schemeID');
  const endpointId = r.text(endpoint);
  if (endpoint && endpointId && !scheme) r.remark(endpoint, 'no schemeID, so no Peppol id');
  if (endpoint && scheme && endpointId) r.remember([at, 'peppol_id'], endpoint);

  // The JSON view has one name, written as both; the registration name is the legal one (BT-27/BT-44).
  const legal = r.one(party, 'cac:PartyLegalEntity');
  const registrationName = r.one(legal, 'cbc:RegistrationName');
  const tradingName = r.one(party, 'cac:PartyName/cbc:Name');
  if (registrationName && tradingName?.text === registrationName.text) r.understood(tradingName);

  const postal = r.one(party, 'cac:PostalAddress');
  const address = readAddress(c, postal, [at, 'address']);
  if (postal && !address.country) r.remark(postal, 'an address without a country; the JSON view needs one for an address');

  const vat = r.all(party, 'cac:PartyTaxScheme').find((scheme) => r.one(scheme, 'cac:TaxScheme/cbc:ID')?.text === 'VAT');
  r.understood(r.one(vat, 'cac:TaxScheme/cbc:ID'));
  const registration = r.one(legal, 'cbc:CompanyID');
  const registrationId = r.field(registration, [at, 'company_registration_id']);
  // The JSON view takes the id alone; its scheme follows from the country (legal-id.ts). Another scheme is named.
  if (registration?.attributes.schemeID !== undefined && registration.attributes.schemeID === legalIdScheme(address.country, registrationId)) {
    r.attribute(registration, 'schemeID');
  }
  const contact = r.one(party, 'cac:Contact');
  return stated({
    name: r.field(registrationName ?? tradingName, [at, 'name']),
    tax_id: r.field(r.one(vat, 'cbc:CompanyID'), [at, 'tax_id']),
    company_registration_id: registrationId,
    peppol_id: scheme && endpointId ? `${scheme}:${endpointId}` : undefined,
    contact_name: r.field(r.one(contact, 'cbc:Name'), [at, 'contact_name']),
    phone: r.field(r.one(contact, 'cbc:Telephone'), [at, 'phone']),
    email: r.field(r.one(contact, 'cbc:ElectronicMail'), [at, 'email']),
    address: address.country ? stated({ ...address, country: address.country }) : undefined,
  });
}

function readDelivery(c: Context): DocumentJson['delivery'] {
  const { r } = c;
  const delivery = r.one(r.root, 'cac:Delivery');
  if (!delivery) return undefined;
  const address = r.one(delivery, 'cac:DeliveryLocation/cac:Address');
  const country = r.one(address, 'cac:Country/cbc:IdentificationCode');
  return nonEmpty({
    date: r.field(r.one(delivery, 'cbc:ActualDeliveryDate'), ['delivery', 'date']),
    ...readAddress(c, address, ['delivery']),
    country: r.field(country, ['delivery', 'country']),
  });
}

/** The VAT an item carries: category and rate as stated, the exemption from its category's breakdown. */
function readTax(c: Context, category: XmlElement | undefined, at: JsonPath) {
  const { r } = c;
  const id = r.one(category, 'cbc:ID');
  // The code list the category comes from in any case; another scheme is named.
  if (id?.attributes.schemeID === 'UNCL5305') r.attribute(id, 'schemeID');
  const categoryCode = r.text(id);
  implied(r, r.one(category, 'cac:TaxScheme/cbc:ID'), 'VAT');
  const exemption = categoryCode ? c.exemptions.get(categoryCode) : undefined;
  return {
    tax_rate: r.decimal(r.one(category, 'cbc:Percent')),
    tax_category: categoryCode,
    tax_exemption_reason: r.field(exemption?.reason, [...at, 'tax_exemption_reason']),
    tax_exemption_reason_code: r.field(exemption?.code, [...at, 'tax_exemption_reason_code']),
  };
}

/** Allowances and charges under `parent`, apart; `withTax` for document level, where each has its VAT category. */
function readAllowancesCharges(c: Context, parent: XmlElement, at: JsonPath, withTax: boolean) {
  const { r } = c;
  const found = { allowances: [] as ReceivedAllowanceCharge[], charges: [] as ReceivedAllowanceCharge[] };
  for (const entry of r.all(parent, 'cac:AllowanceCharge')) {
    const indicator = r.one(entry, 'cbc:ChargeIndicator');
    // An xs:boolean: Peppol wants true or false (PEPPOL-EN16931-R043), EN 16931 core also takes 1 and 0.
    const indicatorText = r.text(indicator);
    const kind = indicatorText === 'true' || indicatorText === '1' ? 'charges' : indicatorText === 'false' || indicatorText === '0' ? 'allowances' : undefined;
    if (!kind) {
      r.account(entry, `ChargeIndicator "${indicator?.text ?? ''}" says neither allowance nor charge`);
      continue;
    }
    const path = [...at, kind, found[kind].length];
    found[kind].push(
      stated({
        amount: amount(c, r.one(entry, 'cbc:Amount'))!,
        reason: r.text(r.one(entry, 'cbc:AllowanceChargeReason'))!,
        reason_code: r.field(r.one(entry, 'cbc:AllowanceChargeReasonCode'), [...path, 'reason_code']),
        ...(withTax ? stated(readTax(c, r.one(entry, 'cac:TaxCategory'), path)) : {}),
      }),
    );
  }
  return found;
}

function documentAllowancesCharges(c: Context): Pick<DocumentJson, 'allowances' | 'charges'> {
  const { allowances, charges } = readAllowancesCharges(c, c.r.root, [], true);
  return stated({ allowances: allowances.length > 0 ? allowances : undefined, charges: charges.length > 0 ? charges : undefined });
}

/** Allowances or charges summed; one without an amount (the UBL lacks it) adds nothing, and the view does not parse. */
const sum = (entries: LineAllowanceCharge[]): Amount => entries.reduce((total, entry) => (entry.amount === undefined ? total : total.plus(money(entry.amount))), money(0));

function readLine(c: Context, line: XmlElement, index: number, kind: ReceivedUbl['kind']): ReceivedLine {
  const { r } = c;
  const at = ['lines', index];
  const id = r.one(line, 'cbc:ID');
  if (id && id.text !== String(index + 1)) r.remark(id, 'line ids other than 1, 2, 3 …; the JSON view numbers lines by position');
  r.understood(id);
  const quantityElement = r.one(line, kind === 'invoice' ? 'cbc:InvoicedQuantity' : 'cbc:CreditedQuantity');
  const quantity = r.decimal(quantityElement);
  const unit = r.attribute(quantityElement, 'unitCode');
  if (quantityElement && unit !== undefined) r.remember([...at, 'unit'], quantityElement);
  if (quantityElement && unit === undefined) r.remark(quantityElement, 'no unitCode; the JSON view then says C62 (one)');
  const item = r.one(line, 'cac:Item');
  const { allowances, charges } = readAllowancesCharges(c, line, at, false);
  const unitPrice = readUnitPrice(c, r.one(line, 'cac:Price'), unit);

  // The JSON view's line net is computed (round2(quantity × price) + charges − allowances, calculate.ts); say so when the UBL's differs.
  const net = r.one(line, 'cbc:LineExtensionAmount');
  const statedNet = amount(c, net);
  if (net && statedNet !== undefined && quantity !== undefined && unitPrice !== undefined) {
    const computed = round2(money(quantity).times(unitPrice)).plus(sum(charges)).minus(sum(allowances));
    if (!computed.equals(statedNet)) r.remark(net, `${statedNet}, where the JSON view's quantity, price, allowances and charges give ${computed.toFixed(2)}`);
  }
  return stated({
    description: r.text(r.one(item, 'cbc:Name'))!,
    quantity: quantity!,
    unit,
    unit_price: unitPrice!,
    ...stated(readTax(c, r.one(item, 'cac:ClassifiedTaxCategory'), at)),
    item_id: r.field(r.one(item, 'cac:SellersItemIdentification/cbc:ID'), [...at, 'item_id']),
    note: r.field(r.one(line, 'cbc:Note'), [...at, 'note']),
    allowances: allowances.length > 0 ? allowances : undefined,
    charges: charges.length > 0 ? charges : undefined,
  });
}

/** Decimals the JSON view keeps in a price (input.ts DECIMAL_PATTERN). */
const PRICE_DECIMALS = 10;

/**
 * The net price of one unit. A price stated per base quantity (BT-149, 12
 * months for 441.00) is divided by it, since the JSON view's price is always
 * per unit; when that needs more decimals than the view keeps, it is rounded
 * and named.
 */
function readUnitPrice(c: Context, price: XmlElement | undefined, unit: string | undefined): string | undefined {
  const { r } = c;
  const amountElement = r.one(price, 'cbc:PriceAmount');
  const perBase = amount(c, amountElement);
  const baseElement = r.one(price, 'cbc:BaseQuantity');
  const base = r.decimal(baseElement);
  const baseUnit = r.attribute(baseElement, 'unitCode');
  if (baseElement && baseUnit !== undefined && baseUnit !== unit) r.remark(baseElement, `unit ${baseUnit}, not the line's ${unit ?? '(none)'}`);
  if (perBase === undefined || base === undefined || money(base).equals(1)) return perBase;
  if (money(base).lessThanOrEqualTo(0)) {
    r.remark(baseElement!, `${base} is not a quantity to divide the price by; the price is taken per unit`);
    return perBase;
  }
  const perUnit = money(perBase).dividedBy(base);
  if (perUnit.decimalPlaces() <= PRICE_DECIMALS) return perUnit.toFixed();
  r.remark(baseElement!, `${perBase} per ${base} is rounded to ${PRICE_DECIMALS} decimals per unit`);
  return perUnit.toDecimalPlaces(PRICE_DECIMALS).toFixed();
}

type AttachmentJson = NonNullable<DocumentJson['attachments']>[number];

/**
 * AdditionalDocumentReference: embedded files (BG-24) become attachments
 * (in the JSON view as base64, beside it decoded); the Greek MARK and
 * invoice URL references (GR-R-004, GR-S-008) become `greece`, as build.ts
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
function dropWhatTheSchemaRefuses(r: Reading, document: DocumentJson): void {
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
