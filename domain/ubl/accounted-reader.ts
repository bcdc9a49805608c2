import { lineNet, money } from '../documents/calculate';
import type { XmlElement } from '../xml-tree';
import { NS } from './xml';

/**
 * Reading a UBL (or CII) tree while keeping account of what was read. Every element
 * and attribute the mapping takes (or knows it need not take) is marked; at
 * the end everything left unmarked is what the JSON view does not carry,
 * named by its path. So the list of what a received document loses
 * cannot fall behind the mapping: nothing has to be listed by hand. Below
 * the class, the few helpers every part of the reading (read*.ts) shares.
 */

/** Prefix → namespace of the UBL a Reading reads unless it is given others (CII's, domain/cii/syntax.ts). */
const UBL_NAMESPACES: Record<string, string> = {
  cac: NS.cac,
  cbc: NS.cbc,
  ext: 'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2',
};

/** An XSD decimal (`+1.50`, `.5`, `-3.`) as a plain decimal string (`1.50`, `0.5`, `-3`); trailing zeros are kept. */
const XSD_DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/;
function decimalText(text: string): string | undefined {
  const match = XSD_DECIMAL.exec(text);
  if (!match || (match[2] === '' && !match[3])) return undefined;
  const [, sign, whole, fraction] = match;
  return `${sign === '-' ? '-' : ''}${whole || '0'}${fraction ? `.${fraction}` : ''}`;
}

export type JsonPath = (string | number)[];

export class Reading {
  private readonly used = new Set<XmlElement>();
  private readonly usedAttributes = new Map<XmlElement, Set<string>>();
  private readonly paths = new Map<XmlElement, string>();
  /** Values the input schema may refuse: JSON path → the element it came from, so a refused one is dropped and named. */
  private readonly sources = new Map<string, XmlElement>();
  private readonly remarks: string[] = [];
  /** Elements a remark already accounts for, whole: not named again. */
  private readonly accounted = new Set<XmlElement>();

  private readonly prefixes: Map<string, string>;

  constructor(
    readonly root: XmlElement,
    private readonly namespaces: Record<string, string> = UBL_NAMESPACES,
  ) {
    this.prefixes = new Map(Object.entries(namespaces).map(([prefix, uri]) => [uri, prefix]));
    const nameOf = (element: XmlElement) => {
      const prefix = this.prefixes.get(element.namespace);
      return prefix ? `${prefix}:${element.name}` : `{${element.namespace}}${element.name}`;
    };
    const index = (element: XmlElement, path: string) => {
      this.paths.set(element, path);
      for (const child of element.children) index(child, path ? `${path}/${nameOf(child)}` : nameOf(child));
    };
    index(root, '');
  }

  /** Children with this qualified name (`cac:InvoiceLine`). */
  all(parent: XmlElement | undefined, name: string): XmlElement[] {
    const [prefix, local] = name.split(':') as [string, string];
    const namespace = this.namespaces[prefix];
    return parent?.children.filter((child) => child.namespace === namespace && child.name === local) ?? [];
  }

  /** The first element along a path of qualified names (`cac:Party/cac:Contact/cbc:Name`); a second one of a kind is left unread, so reported. */
  one(parent: XmlElement | undefined, path: string): XmlElement | undefined {
    return path.split('/').reduce<XmlElement | undefined>((element, name) => this.all(element, name)[0], parent);
  }

  /** The element's text, now read; undefined when there is no element or it is empty. */
  text(element: XmlElement | undefined): string | undefined {
    if (!element) return undefined;
    this.used.add(element);
    return element.text === '' ? undefined : element.text;
  }

  /** Text for an optional field of the JSON view, remembered so that a value the input schema refuses can be dropped and named. */
  field(element: XmlElement | undefined, jsonPath: JsonPath): string | undefined {
    const text = this.text(element);
    if (text !== undefined) this.remember(jsonPath, element!);
    return text;
  }

  /** A field of the JSON view that may be dropped if the input schema refuses it, and the element it came from. */
  remember(jsonPath: JsonPath, element: XmlElement): void {
    this.sources.set(jsonPath.join('.'), element);
  }

  /** The element a droppable field came from, once: it is then dropped. */
  takeSource(jsonPath: readonly PropertyKey[]): XmlElement | undefined {
    const key = jsonPath.map(String).join('.');
    const source = this.sources.get(key);
    this.sources.delete(key);
    return source;
  }

  /** A decimal as a plain decimal string; text that is no decimal is named, and undefined. */
  decimal(element: XmlElement | undefined): string | undefined {
    if (!element) return undefined;
    this.used.add(element);
    if (element.text === '') return undefined;
    const value = decimalText(element.text);
    if (value === undefined) this.remark(element, `"${element.text}" is not a decimal number`);
    return value;
  }

  attribute(element: XmlElement | undefined, name: string): string | undefined {
    if (!element || element.attributes[name] === undefined) return undefined;
    const used = this.usedAttributes.get(element) ?? new Set<string>();
    used.add(name);
    this.usedAttributes.set(element, used);
    return element.attributes[name];
  }

  /** Read and understood, though the JSON view needs none of it (a fixed code such as `TaxScheme/ID` VAT). */
  understood(element: XmlElement | undefined): void {
    if (element) this.used.add(element);
  }

  /** Something the JSON view carries otherwise or not at all, with the reason. */
  remark(element: XmlElement, reason: string): void {
    this.remarks.push(`${this.pathOf(element)}: ${reason}`);
  }

  /** Elements the JSON view does not carry, with the reason: named once, their parts not again. */
  account(elements: XmlElement | XmlElement[], reason: string): void {
    const all = Array.isArray(elements) ? elements : [elements];
    if (all[0]) this.remark(all[0], reason);
    for (const element of all) this.accounted.add(element);
  }

  private pathOf(element: XmlElement): string {
    return this.paths.get(element) ?? element.name;
  }

  /**
   * What the JSON view does not carry: the remarks, then every element left
   * unread that holds nothing read (named once per path, not per
   * occurrence), and every attribute left unread on an element that was.
   */
  unmapped(): string[] {
    const found = new Set<string>(this.remarks);
    const holdsRead = new Map<XmlElement, boolean>();
    const isRead = (element: XmlElement): boolean => {
      const known = holdsRead.get(element);
      if (known !== undefined) return known;
      const read = this.used.has(element) || element.children.map(isRead).some(Boolean);
      holdsRead.set(element, read);
      return read;
    };
    const walk = (element: XmlElement) => {
      const path = this.pathOf(element);
      if (this.accounted.has(element)) return;
      if (!isRead(element)) {
        found.add(path);
        return;
      }
      const used = this.usedAttributes.get(element);
      for (const name of Object.keys(element.attributes)) if (!used?.has(name)) found.add(`${path}/@${name}`);
      element.children.forEach(walk);
    };
    this.root.children.forEach(walk);
    return [...found];
  }
}

/** Drops the keys whose value is undefined, so the JSON view holds only what the UBL says. */
export function stated<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}

export const nonEmpty = <T extends object>(value: T): T | undefined =>
  Object.keys(stated(value)).length > 0 ? stated(value) : undefined;

/** A value the JSON view implies (its documents are Peppol BIS Billing 3.0 of type 380 or 381, its tax VAT); another one is named. */
export function implied(r: Reading, element: XmlElement | undefined, value: string): void {
  if (!element) return;
  r.understood(element);
  if (element.text !== value) r.remark(element, `${element.text}, where the JSON view implies ${value}`);
}

/**
 * The JSON view's line net is computed (round2(quantity × price) + charges − allowances, calculate.ts): when the
 * document states another, that is named on the element stating it.
 */
export function remarkOtherLineNet(
  r: Reading,
  element: XmlElement,
  statedNet: string,
  line: Parameters<typeof lineNet>[0],
): void {
  const computed = lineNet(line);
  if (!computed.equals(money(statedNet)))
    r.remark(
      element,
      `${statedNet}, where the JSON view's quantity, price, allowances and charges give ${computed.toFixed(2)}`,
    );
}

/** Decimals the JSON view keeps in a price (input.ts DECIMAL_PATTERN). */
const PRICE_DECIMALS = 10;

/** A price's base quantity (BT-149) and its unit (BT-150), as stated. */
export interface PriceBase {
  element: XmlElement;
  quantity: string | undefined;
  unit: string | undefined;
}

/**
 * The net price of one unit. A price stated per base quantity (BT-149, 12
 * months for 441.00) is divided by it, since the JSON view's price is always
 * per unit; when that needs more decimals than the view keeps, it is rounded
 * and named.
 */
export function pricePerUnit(
  r: Reading,
  perBase: string | undefined,
  base: PriceBase | undefined,
  lineUnit: string | undefined,
): string | undefined {
  if (base && base.unit !== undefined && base.unit !== lineUnit)
    r.remark(base.element, `unit ${base.unit}, not the line's ${lineUnit ?? '(none)'}`);
  if (perBase === undefined || base?.quantity === undefined || money(base.quantity).equals(1)) return perBase;
  if (money(base.quantity).lessThanOrEqualTo(0)) {
    r.remark(base.element, `${base.quantity} is not a quantity to divide the price by; the price is taken per unit`);
    return perBase;
  }
  const perUnit = money(perBase).dividedBy(base.quantity);
  if (perUnit.decimalPlaces() <= PRICE_DECIMALS) return perUnit.toFixed();
  r.remark(base.element, `${perBase} per ${base.quantity} is rounded to ${PRICE_DECIMALS} decimals per unit`);
  return perUnit.toDecimalPlaces(PRICE_DECIMALS).toFixed();
}
