import { legalIdScheme } from '../documents/legal-id';
import type { JsonPath, Reading } from '../ubl/reading';
import type { XmlElement } from '../xml-tree';
import { carriedValue, childrenSay, joinPaths, parsePath, setAt, valueAt, type ElementStep } from './paths';
import type { XmlSyntax } from './syntax';
import type { TermDocument } from './document';
import { childGroups, termsOf, type GroupName, type Term, type TermGroup } from './table';

/**
 * Reads a document's terms (document.ts) from one XML syntax, driven by the
 * term table: the inverse of write.ts. Every element and attribute a row
 * takes is marked read on the Reading, so whatever the table has no row
 * for is named in the reading's `unmapped`, never dropped unseen. Values
 * are taken as stated (amounts and rates as their decimal text); a text
 * that is not what its kind needs (a date that is no date) is named.
 */

type Json = Record<string, unknown>;

export class TermReader {
  private currency: string | undefined;

  constructor(
    private readonly syntax: XmlSyntax,
    private readonly r: Reading,
    private readonly type: TermDocument['type'] = 'invoice',
  ) {}

  private pathOf(holder: Term | TermGroup): string {
    return this.syntax.path(holder, this.type);
  }

  private matchesCarried(element: XmlElement, step: ElementStep): boolean {
    return (
      Object.entries(step.carries).every(([name, value]) => element.attributes[name] === carriedValue(value, this.currency)) &&
      childrenSay(step, (child, attribute) => this.r.one(element, child)?.attributes[attribute])
    );
  }

  /** The first element along the steps (each carrying its attributes, which are then read too). */
  private locate(parent: XmlElement | undefined, steps: ElementStep[]): XmlElement | undefined {
    return steps.reduce<XmlElement | undefined>((element, step) => {
      const found = this.r.all(element, `${step.prefix}:${step.local}`).find((child) => this.matchesCarried(child, step));
      for (const name of Object.keys(step.carries)) this.r.attribute(found, name);
      return found;
    }, parent);
  }

  /** The value at a row's path: an element's text (or its attribute's value), and the element. */
  private at(parent: XmlElement, path: string): { element: XmlElement; text: string | undefined } | undefined {
    const steps = parsePath(path);
    const last = steps.at(-1);
    if (last?.kind === 'attribute') {
      const element = this.locate(parent, steps.slice(0, -1) as ElementStep[]);
      return element && { element, text: this.r.attribute(element, last.name) };
    }
    const element = this.locate(parent, steps as ElementStep[]);
    return element && { element, text: undefined };
  }

  private decode(term: Term, element: XmlElement, attributeText: string | undefined, instance: Json): string | undefined {
    const { r } = this;
    if (parsePath(this.pathOf(term)).at(-1)?.kind === 'attribute') return attributeText;
    switch (term.kind) {
      case 'amount':
      case 'decimal':
      case 'quantity':
        return r.decimal(element);
      case 'date': {
        const text = r.text(element);
        const date = text === undefined ? undefined : this.syntax.readDate(text);
        if (text !== undefined && date === undefined) r.remark(element, `"${text}" is not a date`);
        return date;
      }
      case 'participant': {
        const text = r.text(element);
        const scheme = r.attribute(element, 'schemeID');
        if (text !== undefined && scheme === undefined) r.remark(element, 'no schemeID, so no Peppol id');
        return text !== undefined && scheme !== undefined ? `${scheme}:${text}` : undefined;
      }
      case 'legal-id': {
        const text = r.text(element);
        // The JSON view takes the id alone, its scheme following from the country (legal-id.ts); another scheme is named.
        if (element.attributes.schemeID !== undefined && element.attributes.schemeID === legalIdScheme(valueAt(instance, 'address.country') as string | undefined, text)) {
          r.attribute(element, 'schemeID');
        }
        return text;
      }
      default:
        return r.text(element);
    }
  }

  /** Marks the companions (write.ts) of every element read as understood, when they say what they always say. */
  companions(element: XmlElement): void {
    for (const child of element.children) this.companions(child);
    const name = [...Object.entries(this.syntax.namespaces)].find(([, uri]) => uri === element.namespace)?.[0];
    for (const [path, value] of Object.entries(this.syntax.companions[`${name}:${element.name}`] ?? {})) {
      const companion = this.r.one(element, path);
      if (companion?.text === value) this.r.understood(companion);
    }
  }

  /**
   * Reads the terms of a group from its element (or, for a group that does not repeat, from the parent's under
   * `base`); `at` is where the group sits in the document JSON, under which each value is remembered, so that one
   * the input schema refuses can be left out and named.
   */
  group(name: GroupName, element: XmlElement, at: JsonPath = [], base = ''): Json {
    const instance: Json = {};
    // Legal ids are read after the address, whose country names their scheme.
    const terms = [...termsOf(name)].sort((a, b) => Number(a.kind === 'legal-id') - Number(b.kind === 'legal-id'));
    for (const term of terms) {
      const found = this.at(element, joinPaths(base, this.pathOf(term)));
      if (!found) continue;
      const value = this.decode(term, found.element, found.text, instance);
      if (value === undefined) continue;
      setAt(instance, term.json, value);
      this.r.remember([...at, ...term.json.split('.')], found.element);
      if (term.id === 'BT-5') this.currency = value;
    }
    for (const child of childGroups(name)) {
      if (!child.repeats) {
        const read = this.group(child.name, element, [...at, ...child.json.split('.')], joinPaths(base, this.pathOf(child)));
        if (Object.keys(read).length > 0) setAt(instance, child.json, read);
        continue;
      }
      const read = this.instances(element, joinPaths(base, this.pathOf(child)), this.syntax.fixed(child)).map((each, index) => this.group(child.name, each, [...at, child.json, index]));
      if (read.length > 0) setAt(instance, child.json, read);
    }
    return instance;
  }

  /** A repeating group's elements: every one at the path whose fixed values are the group's (a charge, not an allowance); those values are read. */
  private instances(parent: XmlElement, path: string, fixed: Record<string, string>): XmlElement[] {
    const steps = parsePath(path) as ElementStep[];
    const container = this.locate(parent, steps.slice(0, -1));
    const last = steps.at(-1)!;
    return this.r
      .all(container, `${last.prefix}:${last.local}`)
      .filter((candidate) => this.matchesCarried(candidate, last))
      .filter((candidate) =>
        Object.entries(fixed).every(([fixedPath, value]) => {
          const element = this.locate(candidate, parsePath(fixedPath) as ElementStep[]);
          // An indicator is an xs:boolean: 1 and 0 say true and false too.
          const text = element?.text === '1' ? 'true' : element?.text === '0' ? 'false' : element?.text;
          if (text === value) this.r.understood(element);
          // An indicator tells the groups apart, so it must be there; a fixed code (TypeCode VAT) may be left out.
          return text === value || (element === undefined && !/Indicator$/.test(fixedPath));
        }),
      );
  }
}
