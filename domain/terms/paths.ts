/**
 * The path language of the term table (table.ts): `a:B/c:D[@scheme=VA]/@unit`.
 * Each step is a qualified element name with the attributes it must carry;
 * a last step `@name` is an attribute of the element before it. A predicate
 * value `$currency` stands for the document currency. A predicate on a child,
 * `[c:D@scheme=SEPA]` or `[c:D@scheme!=SEPA]`, takes only an element whose child
 * has (or has not) that attribute value: two terms then share no element where
 * UBL repeats one (a seller's identifiers, BT-29 and BT-90, each in a
 * PartyIdentification of its own).
 */

export interface ElementStep {
  kind: 'element';
  prefix: string;
  local: string;
  /** Attribute → value (or `$currency`) the element carries. */
  carries: Record<string, string>;
  /** What its children must say: `has` the attribute value, or not. */
  children: ChildCondition[];
}

export interface ChildCondition {
  child: string;
  attribute: string;
  value: string;
  has: boolean;
}

export interface AttributeStep {
  kind: 'attribute';
  name: string;
}

export type Step = ElementStep | AttributeStep;

const STEP = /^([a-z]+):([A-Za-z]+)((?:\[[^\]]+\])*)$/;
const PREDICATE = /\[([^\]]+)\]/g;
const CARRIED = /^@([A-Za-z]+)=(.+)$/;
const OF_CHILD = /^([a-z]+:[A-Za-z]+)@([A-Za-z]+)(!?=)(.+)$/;

const parsed = new Map<string, Step[]>();

export function parsePath(path: string): Step[] {
  const known = parsed.get(path);
  if (known) return known;
  const steps = path === '' ? [] : path.split('/').map((text): Step => {
    if (text.startsWith('@')) return { kind: 'attribute', name: text.slice(1) };
    const match = STEP.exec(text);
    if (!match) throw new Error(`not a step of the term table's path language: ${text} (in ${path})`);
    const step: ElementStep = { kind: 'element', prefix: match[1]!, local: match[2]!, carries: {}, children: [] };
    for (const [, predicate] of match[3]!.matchAll(PREDICATE)) {
      const carried = CARRIED.exec(predicate!);
      const ofChild = OF_CHILD.exec(predicate!);
      if (carried) step.carries[carried[1]!] = carried[2]!;
      else if (ofChild) step.children.push({ child: ofChild[1]!, attribute: ofChild[2]!, has: ofChild[3] === '=', value: ofChild[4]! });
      else throw new Error(`not a predicate of the term table's path language: [${predicate}] (in ${path})`);
    }
    return step;
  });
  steps.slice(0, -1).forEach((step) => {
    if (step.kind === 'attribute') throw new Error(`an attribute can only end a path: ${path}`);
  });
  parsed.set(path, steps);
  return steps;
}

/** Whether an element's children say what the step asks of them; `attributeOf` reads a named child's attribute (undefined without one). */
export const childrenSay = (step: ElementStep, attributeOf: (child: string, attribute: string) => string | undefined) =>
  step.children.every(({ child, attribute, value, has }) => (attributeOf(child, attribute) === value) === has);

export const joinPaths = (...paths: string[]) => paths.filter((path) => path !== '').join('/');

/** The predicate's value: the document currency for `$currency`, else as written. */
export const carriedValue = (value: string, currency: string | undefined) => (value === '$currency' ? (currency ?? '') : value);

/** A value at a dotted JSON path (`address.city`). */
export function valueAt(object: unknown, path: string): unknown {
  return path === '' ? object : path.split('.').reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), object);
}

/** Sets a value at a dotted JSON path, making the objects on the way. */
export function setAt(object: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  const parent = keys.slice(0, -1).reduce<Record<string, unknown>>((node, key) => (node[key] ??= {}) as Record<string, unknown>, object);
  parent[keys.at(-1)!] = value;
}
