import { decodeBase64 } from '../documents/attachments';
import { EXEMPT_CATEGORIES, money } from '../documents/calculate';
import type { TaxCategory } from '../documents/input';
import type { TermAttachment, TermDocument, TermLine, TermParty, TermVatBreakdown } from '../terms/document';
import { TermReader } from '../terms/read';
import { CUSTOMIZATION_ID, profileOf } from '../ubl/xml';
import { dropWhatTheSchemaRefuses } from '../ubl/read';
import type { DocumentJson, ReceivedAttachment, ReceivedUbl, StatedTotals, UblReadResult } from '../ubl/received';
import { implied, nonEmpty, pricePerUnit, Reading, remarkOtherLineNet, stated } from '../ubl/reading';
import { parseBounded, UBL_BOUNDS } from '../xml-bounds';
import type { XmlElement } from '../xml-tree';
import { CII_NS, CII_SYNTAX } from './syntax';

/**
 * A UN/CEFACT CII CrossIndustryInvoice (EN 16931 CII syntax) read into the
 * JSON a client posts, as domain/ubl/read.ts reads UBL: the terms the table
 * maps (domain/terms/read.ts), the totals and breakdown as the document
 * states them beside the view, its embedded files decoded, and what the
 * view does not carry named by CII path in `unmapped`.
 */

type Json = Record<string, unknown>;

export function readCii(xml: string | Buffer): UblReadResult {
  const parsed = parseBounded(xml, UBL_BOUNDS);
  return 'root' in parsed ? readCiiTree(parsed.root) : parsed;
}

/** A parsed CrossIndustryInvoice (its root); another root is unsupported. */
export function readCiiTree(root: XmlElement): UblReadResult {
  if (root.namespace !== CII_NS.rsm || root.name !== 'CrossIndustryInvoice') {
    return { unsupported: `the root element is {${root.namespace}}${root.name}, not a UN/CEFACT CII CrossIndustryInvoice` };
  }
  const r = new Reading(root, CII_NS);
  const reader = new TermReader(CII_SYNTAX, r);
  const terms = reader.group('document', root) as Partial<TermDocument>;
  reader.companions(root);
  for (const path of CII_SYNTAX.always) r.understood(r.one(root, path));
  return viewOf(r, terms);
}

/** The breakdown's exemption reason on each item of an exempt category, where the JSON view carries it. */
function withExemption<T extends { tax_category?: string | undefined }>(item: T, breakdown: TermVatBreakdown[]): T {
  const group = EXEMPT_CATEGORIES.has(item.tax_category as TaxCategory) ? breakdown.find((each) => each.category === item.tax_category) : undefined;
  return group ? stated({ ...item, tax_exemption_reason: group.exemption_reason, tax_exemption_reason_code: group.exemption_reason_code }) : item;
}

function viewOf(r: Reading, terms: Partial<TermDocument>): ReceivedUbl {
  const kind = terms.type_code === '381' ? 'credit_note' : 'invoice';
  implied(r, r.one(r.root, 'rsm:ExchangedDocument/ram:TypeCode'), kind === 'invoice' ? '380' : '381');
  const profile = profileOf(terms.specification);
  if (!profile) implied(r, r.one(r.root, 'rsm:ExchangedDocumentContext/ram:GuidelineSpecifiedDocumentContextParameter/ram:ID'), CUSTOMIZATION_ID);
  const breakdown = terms.vat_breakdown ?? [];
  const totals = (terms.totals ?? {}) as Partial<TermDocument['totals']>;
  const lines = ((terms.lines ?? []) as Partial<TermLine>[]).map((line, index) => lineView(r, line, index, breakdown));
  const attachments = ((terms.attachments ?? []) as Partial<TermAttachment>[]).flatMap((attachment) => attachmentOf(r, attachment));
  const { specification: _specification, process: _process, type_code: _typeCode, vat_breakdown: _breakdown, totals: _totals, from, to, ...rest } = terms;
  const document: DocumentJson = stated({
    ...(rest as Json),
    type: kind,
    profile: profile === 'peppol' ? undefined : profile,
    from: from && partyView(r, from, 'SellerTradeParty'),
    to: to && partyView(r, to, 'BuyerTradeParty'),
    lines: lines.map(({ line }) => line),
    allowances: terms.allowances?.map((entry) => withExemption(entry, breakdown)),
    charges: terms.charges?.map((entry) => withExemption(entry, breakdown)),
    payment: nonEmpty({ ...terms.payment, prepaid_amount: totals.prepaid, rounding_amount: totals.payable_rounding && !money(totals.payable_rounding).isZero() ? totals.payable_rounding : undefined }),
    attachments: attachments.flatMap(({ json }) => (json ? [json] : [])),
  } as DocumentJson);
  if (document.attachments?.length === 0) delete document.attachments;
  dropWhatTheSchemaRefuses(r, document);
  return {
    kind,
    document,
    stated_totals: statedTotals(totals, breakdown),
    stated_line_nets: lines.map(({ net }) => net ?? null),
    attachments: attachments.map(({ received }) => received),
    unmapped: r.unmapped(),
  };
}

/** The JSON view has one name for a party: a trading name that repeats it is understood, another one named. */
function partyView(r: Reading, party: TermParty, element: string): DocumentJson['from'] {
  const { trading_name: tradingName, ...view } = party;
  const tradingElement = r.one(r.root, `rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:${element}/ram:SpecifiedLegalOrganization/ram:TradingBusinessName`);
  if (tradingName !== undefined && tradingName !== party.name && tradingElement) r.remark(tradingElement, `a trading name other than the name (${party.name ?? 'none'}); the JSON view has one name`);
  return view;
}

function lineView(r: Reading, line: Partial<TermLine>, index: number, breakdown: TermVatBreakdown[]) {
  const { id, net, price_base_quantity: baseQuantity, price_base_unit: baseUnit, ...json } = line;
  const element = r.all(r.one(r.root, 'rsm:SupplyChainTradeTransaction'), 'ram:IncludedSupplyChainTradeLineItem')[index];
  const baseElement = r.one(element, 'ram:SpecifiedLineTradeAgreement/ram:NetPriceProductTradePrice/ram:BasisQuantity');
  json.unit_price = pricePerUnit(r, json.unit_price as string | undefined, baseElement && { element: baseElement, quantity: baseQuantity, unit: baseUnit }, json.unit);
  if (id !== undefined && id !== String(index + 1) && element) r.remark(element, `line id ${id}; the JSON view numbers lines by position`);
  const netElement = r.one(element, 'ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount');
  if (net !== undefined && json.quantity !== undefined && json.unit_price !== undefined && netElement) remarkOtherLineNet(r, netElement, net, json);
  return { line: withExemption(json as DocumentJson['lines'][number], breakdown), net };
}

/** An embedded file (BG-24) as an attachment of the view (base64) and beside it (decoded); a reference without one is named. */
function attachmentOf(r: Reading, attachment: Partial<TermAttachment>): { json?: NonNullable<DocumentJson['attachments']>[number]; received: ReceivedAttachment }[] {
  const content = attachment.content === undefined ? undefined : decodeBase64(attachment.content);
  if (!content) {
    const element = r.all(r.one(r.root, 'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement'), 'ram:AdditionalReferencedDocument').find((candidate) => r.one(candidate, 'ram:IssuerAssignedID')?.text === attachment.id);
    const why = attachment.content === undefined ? 'a supporting document without an embedded file; the JSON view carries embedded files only' : 'the content is not base64';
    if (element) r.remark(element, why);
    return [];
  }
  const received: ReceivedAttachment = stated({ id: attachment.id ?? null, filename: attachment.filename ?? null, mime_code: attachment.mime_type ?? null, description: attachment.description, content });
  if (!attachment.filename || !attachment.mime_type) return [{ received }];
  return [{ json: stated({ filename: attachment.filename, mime_type: attachment.mime_type, content: attachment.content!.replace(/\s+/g, ''), description: attachment.description }), received }];
}

function statedTotals(totals: Partial<TermDocument['totals']>, breakdown: Partial<TermVatBreakdown>[]): StatedTotals {
  return {
    line_extension: totals.line_extension ?? null,
    allowance_total: totals.allowance_total ?? null,
    charge_total: totals.charge_total ?? null,
    tax_exclusive: totals.tax_exclusive ?? null,
    tax: totals.tax ?? null,
    tax_inclusive: totals.tax_inclusive ?? null,
    prepaid: totals.prepaid ?? null,
    payable_rounding: totals.payable_rounding ?? null,
    payable: totals.payable ?? null,
    tax_breakdown: breakdown.map((group) => ({ category: group.category ?? null, rate: group.rate ?? null, taxable: group.taxable ?? null, tax: group.tax ?? null })),
  };
}
