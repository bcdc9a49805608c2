import type { XmlElement } from '../xml-tree';
import type { DocumentJson, ReceivedAllowanceCharge, ReceivedLine, ReceivedUbl } from './received';
import { amount, implied, pricePerUnit, remarkOtherLineNet, stated, type Context, type JsonPath } from './reading';

/** Lines, allowances and charges, and the VAT of each, of a received UBL document (read.ts). */


/** The VAT an item carries: category and rate as stated, the exemption from its category's breakdown. */
function readTax(c: Context, category: XmlElement | undefined, at: JsonPath) {
  const { r } = c;
  const id = r.one(category, 'cbc:ID');
  // The code list the category comes from in any case; another scheme is named.
  if (id?.attributes.schemeID === 'UNCL5305') r.attribute(id, 'schemeID');
  const categoryCode = r.text(id);
  implied(r, r.one(category, 'cac:TaxScheme/cbc:ID'), c.taxScheme);
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
        reason: r.field(r.one(entry, 'cbc:AllowanceChargeReason'), [...path, 'reason']),
        reason_code: r.field(r.one(entry, 'cbc:AllowanceChargeReasonCode'), [...path, 'reason_code']),
        ...(withTax ? stated(readTax(c, r.one(entry, 'cac:TaxCategory'), path)) : {}),
      }),
    );
  }
  return found;
}

export function documentAllowancesCharges(c: Context): Pick<DocumentJson, 'allowances' | 'charges'> {
  const { allowances, charges } = readAllowancesCharges(c, c.r.root, [], true);
  return stated({ allowances: allowances.length > 0 ? allowances : undefined, charges: charges.length > 0 ? charges : undefined });
}

/** A line of the JSON view, and its net amount (BT-131) as the UBL states it. */
export function readLine(c: Context, line: XmlElement, index: number, kind: ReceivedUbl['kind']): { line: ReceivedLine; net: string | undefined } {
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

  const net = r.one(line, 'cbc:LineExtensionAmount');
  const statedNet = amount(c, net);
  if (net && statedNet !== undefined && quantity !== undefined && unitPrice !== undefined) remarkOtherLineNet(r, net, statedNet, { quantity, unit_price: unitPrice, allowances, charges });
  const json: ReceivedLine = stated({
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
  return { line: json, net: statedNet };
}

/** The net price of one unit (BT-146 per BT-149, pricePerUnit). */
function readUnitPrice(c: Context, price: XmlElement | undefined, unit: string | undefined): string | undefined {
  const { r } = c;
  const baseElement = r.one(price, 'cbc:BaseQuantity');
  const base = baseElement && { element: baseElement, quantity: r.decimal(baseElement), unit: r.attribute(baseElement, 'unitCode') };
  return pricePerUnit(r, amount(c, r.one(price, 'cbc:PriceAmount')), base, unit);
}
