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

/** Every example of one set: `peppol-bis` (OpenPeppol BIS Billing 3.0) or `en16931` (CEN, EN 16931 core). */
export function officialExamples(set: 'peppol-bis' | 'en16931'): OfficialExample[] {
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

/** How many embedded files an example carries. */
export const embeddedFileCount = (xml: string) => (xml.match(/<cbc:EmbeddedDocumentBinaryObject\b/g) ?? []).length;
