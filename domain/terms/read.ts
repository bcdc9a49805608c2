import { legalIdScheme } from '../documents/legal-id';
import type { JsonPath, Reading } from '../ubl/accounted-reader';
import type { XmlElement } from '../xml-tree';
import { profileIds, profileOf } from '../ubl/xml';
import {
  carriedValue,
  childrenSay,
  joinPaths,
  parsePath,
  setAt,
  valueAt,
  type ElementStep,
  type PathValues,
} from './paths';
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
  /** The document's currency (BT-5) and tax scheme (from BT-24), once read: what `$currency` and `$taxScheme` stand for. */
  private readonly values: PathValues = {};
  /** Each value's and each group instance's element, by its place in the JSON (`lines.0.net`). */
  private readonly elements = new Map<string, XmlElement>();
  /** Every element a path went through: those whose companions (write.ts) are understood. */
  private readonly visited = new Set<XmlElement>();

  constructor(
    private readonly syntax: XmlSyntax,
    private readonly r: Reading,
    private readonly type: TermDocument['type'] = 'invoice',
  ) {}

  private pathOf(holder: Term | TermGroup): string {
    return this.syntax.path(holder, this.type);
  }

  /** The element a value or group instance of the JSON came from. */
  elementAt(at: JsonPath): XmlElement | undefined {
    return this.elements.get(at.join('.'));
  }

  private matchesCarried(element: XmlElement, step: ElementStep): boolean {
    return (
      Object.entries(step.carries).every(
        ([name, value]) => element.attributes[name] === carriedValue(value, this.values),
      ) &&
      childrenSay(step, this.values, (child, attribute) => {
        const found = this.r.one(element, child);
        return attribute === undefined ? found?.text : found?.attributes[attribute];
      })
    );
  }

  /** The elements under `parent` that a step takes (its name, the attributes it carries, what its children say). */
  private candidates(parent: XmlElement | undefined, step: ElementStep): XmlElement[] {
    return this.r.all(parent, `${step.prefix}:${step.local}`).filter((child) => this.matchesCarried(child, step));
  }

  /**
   * The first element along the steps (each carrying its attributes, which are then read too). Where a step
   * finds several, the JSON view holds the first: the others are named.
   */
  private locate(parent: XmlElement | undefined, steps: ElementStep[]): XmlElement | undefined {
    return steps.reduce<XmlElement | undefined>((element, step) => {
      const [found, ...others] = this.candidates(element, step);
      if (others.length > 0) this.r.account(others, `${others.length} more; the JSON view carries the first only`);
      for (const name of Object.keys(step.carries)) this.r.attribute(found, name);
      if (found) this.visited.add(found);
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

  private decode(
    term: Term,
    element: XmlElement,
    attributeText: string | undefined,
    instance: Json,
  ): string | undefined {
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
        if (
          element.attributes.schemeID !== undefined &&
          element.attributes.schemeID ===
            legalIdScheme(valueAt(instance, 'address.country') as string | undefined, text)
        ) {
          r.attribute(element, 'schemeID');
        }
        return text;
      }
      default:
        return r.text(element);
    }
  }

  /**
   * Marks as understood, on every element a path went through, its companions (write.ts) and what the syntax
   * implies, when they say what they always say.
   */
  companions(): void {
    for (const element of this.visited) {
      const name = `${[...Object.entries(this.syntax.namespaces)].find(([, uri]) => uri === element.namespace)?.[0]}:${element.name}`;
      for (const [path, value] of Object.entries({ ...this.syntax.companions[name], ...this.syntax.implied[name] })) {
        const [steps, attribute] = path.split('/@') as [string, string | undefined];
        const found = this.r.one(element, steps);
        const expected = carriedValue(value, this.values);
        if (attribute === undefined && found?.text === expected) this.r.understood(found);
        if (attribute !== undefined && found?.attributes[attribute] === expected) this.r.attribute(found, attribute);
      }
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
      const place = [...at, ...term.json.split('.')];
      // An optional value the input schema refuses may be left out of the view; a required one stays, and the view does not parse.
      if (!term.required) this.r.remember(place, found.element);
      this.elements.set(place.join('.'), found.element);
      if (term.id === 'BT-5') this.values.currency = value;
      if (term.id === 'BT-24') this.values.taxScheme = profileIds(profileOf(value)).taxScheme;
    }
    for (const child of childGroups(name)) {
      if (!child.repeats) {
        const read = this.group(
          child.name,
          element,
          [...at, ...child.json.split('.')],
          joinPaths(base, this.pathOf(child)),
        );
        if (Object.keys(read).length > 0) setAt(instance, child.json, read);
        continue;
      }
      const read = this.instances(element, joinPaths(base, this.pathOf(child)), this.syntax.fixed(child)).map(
        (each, index) => {
          this.elements.set([...at, child.json, index].join('.'), each);
          return this.group(child.name, each, [...at, child.json, index]);
        },
      );
      if (read.length > 0) setAt(instance, child.json, read);
    }
    return instance;
  }

  /** A repeating group's elements: every one at the path whose fixed values are the group's (a charge, not an allowance); those values are read. */
  private instances(parent: XmlElement, path: string, fixed: Record<string, string>): XmlElement[] {
    const steps = parsePath(path) as ElementStep[];
    const container = this.locate(parent, steps.slice(0, -1));
    const last = steps.at(-1)!;
    const found = this.candidates(container, last).filter((candidate) =>
      Object.entries(fixed).every(([fixedPath, value]) => {
        const element = this.locate(candidate, parsePath(fixedPath) as ElementStep[]);
        // An indicator is an xs:boolean: 1 and 0 say true and false too.
        const text = element?.text === '1' ? 'true' : element?.text === '0' ? 'false' : element?.text;
        if (text === value) this.r.understood(element);
        // An indicator tells the groups apart, so it must be there; a fixed code (TypeCode VAT) may be left out.
        return text === value || (element === undefined && !/Indicator$/.test(fixedPath));
      }),
    );
    for (const each of found) this.visited.add(each);
    return found;
  }
}
