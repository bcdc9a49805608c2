/**
 * The path language of the term table (table.ts): `a:B/c:D[@scheme=VA]/@unit`.
 * Each step is a qualified element name with the attributes it must carry;
 * a last step `@name` is an attribute of the element before it. A predicate
 * value `$currency` stands for the document currency, `$taxScheme` for its
 * tax scheme (VAT; GST for PINT A-NZ). A predicate on a descendant,
 * `[c:D@scheme=SEPA]`, `[c:D@scheme!=SEPA]` or, on its text,
 * `[c:E/c:F=$taxScheme]`, takes only an element whose descendant has (or has
 * not) that value: two terms then share no element where UBL repeats one (a
 * seller's identifiers, BT-29 and BT-90, each in a PartyIdentification of its
 * own; its VAT registration among its tax registrations; the VAT total in the
 * document currency, not the one in the tax currency).
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

interface ChildCondition {
  /** Qualified names from the element down (`cac:TaxScheme/cbc:ID`). */
  child: string;
  /** The attribute compared; without one, the text. */
  attribute?: string;
  value: string;
  has: boolean;
}

interface AttributeStep {
  kind: 'attribute';
  name: string;
}

export type Step = ElementStep | AttributeStep;

const STEP = /^([a-z]+):([A-Za-z]+)((?:\[[^\]]+\])*)$/;
const PREDICATE = /\[([^\]]+)\]/g;
const CARRIED = /^@([A-Za-z]+)=(.+)$/;
const OF_CHILD = /^([a-z]+:[A-Za-z]+(?:\/[a-z]+:[A-Za-z]+)*)(?:@([A-Za-z]+))?(!?=)(.+)$/;

/** A path's steps: split at each `/` outside a predicate. */
export const stepTexts = (path: string): string[] => path.match(/(?:[^/[]|\[[^\]]*\])+/g) ?? [];

const parsed = new Map<string, Step[]>();

export function parsePath(path: string): Step[] {
  const known = parsed.get(path);
  if (known) return known;
  const steps = stepTexts(path).map((text): Step => {
    if (text.startsWith('@')) return { kind: 'attribute', name: text.slice(1) };
    const match = STEP.exec(text);
    if (!match) throw new Error(`not a step of the term table's path language: ${text} (in ${path})`);
    const step: ElementStep = { kind: 'element', prefix: match[1]!, local: match[2]!, carries: {}, children: [] };
    for (const [, predicate] of match[3]!.matchAll(PREDICATE)) {
      const carried = CARRIED.exec(predicate!);
      const ofChild = OF_CHILD.exec(predicate!);
      if (carried) step.carries[carried[1]!] = carried[2]!;
      else if (ofChild)
        step.children.push({
          child: ofChild[1]!,
          ...(ofChild[2] && { attribute: ofChild[2] }),
          has: ofChild[3] === '=',
          value: ofChild[4]!,
        });
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

/** What the `$` values of predicates and companions stand for in one document. */
export interface PathValues {
  currency?: string | undefined;
  taxScheme?: string | undefined;
}

/** The predicate's value: the document currency for `$currency`, its tax scheme for `$taxScheme`, else as written. */
export function carriedValue(value: string, values: PathValues): string {
  if (value === '$currency') return values.currency ?? '';
  if (value === '$taxScheme') return values.taxScheme ?? '';
  return value;
}

/** Whether an element's descendants say what the step asks of them; `valueOf` reads a descendant's attribute, or its text (undefined without one). */
export const childrenSay = (
  step: ElementStep,
  values: PathValues,
  valueOf: (child: string, attribute: string | undefined) => string | undefined,
) =>
  step.children.every(
    ({ child, attribute, value, has }) => (valueOf(child, attribute) === carriedValue(value, values)) === has,
  );

export const joinPaths = (...paths: string[]) => paths.filter((path) => path !== '').join('/');

/** A value at a dotted JSON path (`address.city`). */
export function valueAt(object: unknown, path: string): unknown {
  return path === ''
    ? object
    : path
        .split('.')
        .reduce<unknown>(
          (node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
          object,
        );
}

/** Sets a value at a dotted JSON path, making the objects on the way. */
export function setAt(object: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  const parent = keys
    .slice(0, -1)
    .reduce<Record<string, unknown>>((node, key) => (node[key] ??= {}) as Record<string, unknown>, object);
  parent[keys.at(-1)!] = value;
}
