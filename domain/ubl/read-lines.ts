import { money, round2, type Amount } from '../documents/calculate';
import type { XmlElement } from '../xml-tree';
import type { DocumentJson, ReceivedAllowanceCharge, ReceivedLine, ReceivedUbl } from './received';
import { amount, implied, stated, type Context, type JsonPath } from './reading';

/** Lines, allowances and charges, and the VAT of each, of a received UBL document (read.ts). */

type LineAllowanceCharge = NonNullable<ReceivedLine['allowances']>[number];

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

/** Allowances or charges summed; one without an amount (the UBL lacks it) adds nothing, and the view does not parse. */
const sum = (entries: LineAllowanceCharge[]): Amount => entries.reduce((total, entry) => (entry.amount === undefined ? total : total.plus(money(entry.amount))), money(0));

export function readLine(c: Context, line: XmlElement, index: number, kind: ReceivedUbl['kind']): ReceivedLine {
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
