import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import { childNamed, childrenNamed, parseXml } from '../../domain/xml-tree';

/** The official example invoices in test/fixtures/examples/ (sources and licences in its README). */

const ROOT = join(__dirname, '..', 'fixtures', 'examples');
const CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';
const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';

export interface OfficialExample {
  /** Path under test/fixtures/examples/, e.g. `peppol-bis/base-example.xml`. */
  name: string;
  xml: string;
}

function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? filesUnder(join(directory, entry.name)) : [join(directory, entry.name)]))
    .filter((file) => /\.xml$/i.test(file))
    .sort();
}

/** Every example of one set: `peppol-bis` (OpenPeppol BIS Billing 3.0), `en16931` (CEN, EN 16931 core, UBL) or `en16931-cii` (the same, CII). */
export function officialExamples(set: 'peppol-bis' | 'en16931' | 'en16931-cii'): OfficialExample[] {
  return filesUnder(join(ROOT, set)).map((file) => ({ name: relative(ROOT, file), xml: readFileSync(file, 'utf8') }));
}

/**
 * The totals an example states, read straight from its XML (not through the
 * reader under test): LegalMonetaryTotal's amounts and the VAT total in the
 * document currency, as written.
 */
export function totalsWritten(xml: string) {
  const root = parseXml(xml);
  const currency = childNamed(root, CBC, 'DocumentCurrencyCode')?.text;
  const monetary = childNamed(root, CAC, 'LegalMonetaryTotal');
  const amount = (name: string) => (monetary && childNamed(monetary, CBC, name)?.text) ?? null;
  const taxAmount = childrenNamed(root, CAC, 'TaxTotal')
    .map((total) => childNamed(total, CBC, 'TaxAmount'))
    .find((tax) => tax?.attributes.currencyID === currency);
  return {
    line_extension: amount('LineExtensionAmount'),
    allowance_total: amount('AllowanceTotalAmount'),
    charge_total: amount('ChargeTotalAmount'),
    tax_exclusive: amount('TaxExclusiveAmount'),
    tax: taxAmount?.text ?? null,
    tax_inclusive: amount('TaxInclusiveAmount'),
    prepaid: amount('PrepaidAmount'),
    payable_rounding: amount('PayableRoundingAmount'),
    payable: amount('PayableAmount'),
  };
}

const RAM = 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100';
const RSM = 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100';

/** The totals a CII invoice states, read straight from its XML (not through the reader under test), named as totalsWritten names them. */
export function ciiTotalsWritten(xml: string) {
  const root = parseXml(xml);
  const settlement = [
    ['SupplyChainTradeTransaction', RSM],
    ['ApplicableHeaderTradeSettlement', RAM],
  ].reduce<ReturnType<typeof parseXml> | undefined>(
    (element, [name, namespace]) => element && childNamed(element, namespace!, name!),
    root,
  );
  const currency = settlement && childNamed(settlement, RAM, 'InvoiceCurrencyCode')?.text;
  const summation = settlement && childNamed(settlement, RAM, 'SpecifiedTradeSettlementHeaderMonetarySummation');
  const amount = (name: string) => (summation && childNamed(summation, RAM, name)?.text) ?? null;
  const tax = summation
    ? childrenNamed(summation, RAM, 'TaxTotalAmount').find((candidate) => candidate.attributes.currencyID === currency)
    : undefined;
  return {
    line_extension: amount('LineTotalAmount'),
    allowance_total: amount('AllowanceTotalAmount'),
    charge_total: amount('ChargeTotalAmount'),
    tax_exclusive: amount('TaxBasisTotalAmount'),
    tax: tax?.text ?? null,
    tax_inclusive: amount('GrandTotalAmount'),
    prepaid: amount('TotalPrepaidAmount'),
    payable_rounding: amount('RoundingAmount'),
    payable: amount('DuePayableAmount'),
  };
}

/** How many embedded files an example carries. */
export const embeddedFileCount = (xml: string) => (xml.match(/<cbc:EmbeddedDocumentBinaryObject\b/g) ?? []).length;

/**
 * Where the service's own checks refuse an example's JSON view although the
 * official rules accept the example itself: the refused path and rule, and
 * why. The UBL is then written as convertDocument would write it without
 * them, so the official rules still judge what the JSON view says.
 */
export const REFUSED_BY_OUR_CHECKS: Record<string, { refused: string[]; why: string }> = {
  'peppol-bis/Allowance-example.xml': {
    refused: ['to.peppol_id'],
    why: 'the buyer endpoint 0002:4598375937 is no 9-digit SIREN with a Luhn check digit, which our check of scheme 0002 wants; the official rules check no format there',
  },
  'peppol-bis/Vat-category-S.xml': {
    refused: ['to.peppol_id'],
    why: 'as Allowance-example: a buyer endpoint 0002 that is no SIREN',
  },
  ...Object.fromEntries(
    [
      'base-creditnote-correction.xml',
      'base-example.xml',
      'base-negative-inv-correction.xml',
      'sales-order-example.xml',
    ].map((name) => [
      `peppol-bis/${name}`,
      {
        refused: ['from.peppol_id PEPPOL-COMMON-R040', 'to.peppol_id'],
        why: 'the seller endpoint 0088:9482348239847239874 has 19 digits where a GLN has 13 (PEPPOL-COMMON-R040 checks only its check digit), and the buyer endpoint 0002:FR23342 is no SIREN',
      },
    ]),
  ),
  'peppol-bis/vat-category-O.xml': {
    refused: ['from.company_registration_id BR-CO-26'],
    why: 'its seller is identified by PartyIdentification (BT-29) alone, which the input has no field for',
  },
  'peppol-bis/national/NO/Norwegian-example-1.xml': {
    refused: ['attachments[0].mime_type PEPPOL-EN16931-CL001'],
    why: 'its file declared application/pdf is 21 bytes of text: our check compares the bytes with the declared type, the official rules do not',
  },
};

/**
 * An official example as a client of ours would make it for `POST /v1/documents` (application/xml): the seller's
 * EndpointID set to the sending company's Peppol id, and the buyer's contact email (where the sandbox delivers) set
 * to `buyerEmail`. Text replaced, not rewritten: every other byte stays the example's.
 */
export function clientMadeUbl(name: string, sellerPeppolId: string, buyerEmail: string): string {
  const example = officialExamples('peppol-bis').find((candidate) => candidate.name === name);
  if (!example) throw new Error(`no official example ${name}`);
  const [scheme, id] = sellerPeppolId.split(/:(.*)/s) as [string, string];
  const sellerEndpoint =
    /(<cac:AccountingSupplierParty>\s*<cac:Party>\s*)<cbc:EndpointID schemeID="[^"]*">[^<]*<\/cbc:EndpointID>/;
  const buyerContactEmail = /(<cac:AccountingCustomerParty>[\s\S]*?<cbc:ElectronicMail>)[^<]*(<\/cbc:ElectronicMail>)/;
  if (!sellerEndpoint.test(example.xml) || !buyerContactEmail.test(example.xml))
    throw new Error(`${name} names no seller endpoint or buyer email to replace`);
  return example.xml
    .replace(sellerEndpoint, `$1<cbc:EndpointID schemeID="${scheme}">${id}</cbc:EndpointID>`)
    .replace(buyerContactEmail, `$1${buyerEmail}$2`);
}

/** The seller identity a live document states besides its EndpointID: legal name (BT-27), VAT id (BT-31), legal registration id (BT-30). */
export interface StatedSellerIdentity {
  name: string;
  tax_id: string;
  company_registration_id: string;
}

/** A client-made UBL (base-example.xml's seller block) whose seller states `seller` as its legal name and numbers; its trading name stays the example's. */
export function withSellerIdentity(xml: string, seller: StatedSellerIdentity): string {
  const supplier = /<cac:AccountingSupplierParty>[\s\S]*?<\/cac:AccountingSupplierParty>/;
  const block = supplier.exec(xml)?.[0];
  if (!block) throw new Error('no seller to restate');
  const restated = block
    .replace(/(<cac:PartyTaxScheme>\s*<cbc:CompanyID>)[^<]*/, `$1${seller.tax_id}`)
    .replace(/(<cbc:RegistrationName>)[^<]*/, `$1${seller.name}`)
    .replace(/(<\/cbc:RegistrationName>\s*<cbc:CompanyID>)[^<]*/, `$1${seller.company_registration_id}`);
  return xml.replace(block, restated);
}
