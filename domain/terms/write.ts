import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';

import { legalIdScheme } from '../documents/legal-id';
import { literal, literalAttribute } from '../ubl/xml';
import type { TermDocument } from './document';
import { carriedValue, childrenSay, joinPaths, parsePath, stepTexts, valueAt, type ElementStep } from './paths';
import { childGroups, groupNamed, termsOf, type GroupName, type Term, type TermGroup } from './table';
import type { XmlSyntax } from './syntax';

/**
 * Writes a document's terms (document.ts) in one XML syntax, driven by the
 * term table: each value goes to its row's path, the elements on the way
 * made once and shared; each instance of a repeating group gets its own
 * element. The syntax's schema sequences then put every element's children
 * in order, so the table can list terms in the order EN 16931 does. A value
 * that is absent or empty is never written.
 */

interface Node {
  name: string;
  attributes: Record<string, string>;
  children: Node[];
  text?: string;
}

const newNode = (name: string, attributes: Record<string, string> = {}): Node => ({ name, attributes, children: [] });
const qualified = (step: ElementStep) => `${step.prefix}:${step.local}`;

/** The first node along qualified names (`cac:TaxScheme/cbc:ID`) below `node`. */
const descendant = (node: Node, path: string): Node | undefined =>
  path.split('/').reduce<Node | undefined>((found, name) => found?.children.find((each) => each.name === name), node);

class TermWriter {
  constructor(
    private readonly syntax: XmlSyntax,
    private readonly document: TermDocument,
  ) {}

  private pathOf(holder: Term | TermGroup): string {
    return this.syntax.path(holder, this.document.type);
  }

  private carried(step: ElementStep): Record<string, string> {
    return Object.fromEntries(
      Object.entries(step.carries).map(([name, value]) => [name, carriedValue(value, this.document)]),
    );
  }

  /** The child for this step, made when there is none yet (or, `fresh`, always). */
  private child(parent: Node, step: ElementStep, fresh = false): Node {
    const name = qualified(step);
    const attributes = this.carried(step);
    const matches = (node: Node) =>
      node.name === name &&
      Object.entries(attributes).every(([key, value]) => node.attributes[key] === value) &&
      childrenSay(step, this.document, (child, attribute) => {
        const found = descendant(node, child);
        return attribute === undefined ? found?.text : found?.attributes[attribute];
      });
    const existing = fresh ? undefined : parent.children.find(matches);
    if (existing) return existing;
    const made = newNode(name, attributes);
    parent.children.push(made);
    return made;
  }

  /** The element at a path under `parent`; `freshLast` makes a new one for the last step (a repeating group's instance). */
  element(parent: Node, path: string, freshLast = false): Node {
    const steps = parsePath(path);
    return steps.reduce((node, step, index) => {
      if (step.kind === 'attribute') throw new Error(`${path} names an attribute, not an element`);
      return this.child(node, step, freshLast && index === steps.length - 1);
    }, parent);
  }

  put(parent: Node, path: string, text: string, attributes: Record<string, string> = {}): void {
    const steps = parsePath(path);
    const last = steps.at(-1);
    if (last?.kind === 'attribute') {
      this.element(parent, joinPaths(...stepTexts(path).slice(0, -1))).attributes[last.name] = text;
      return;
    }
    const node = this.element(parent, path);
    node.text = text;
    Object.assign(node.attributes, attributes);
  }

  /** A companion's text: as the syntax says it, the document's tax scheme for `$taxScheme`. */
  companionText(value: string): string {
    return carriedValue(value, this.document);
  }

  /** A term's value as the syntax writes it: its text and the attributes that go with it. */
  encode(
    term: Term,
    value: string,
    instance: Record<string, unknown>,
  ): { text: string; attributes?: Record<string, string> } {
    switch (term.kind) {
      case 'date':
        return { text: this.syntax.date(value) };
      case 'participant': {
        const [scheme, ...id] = value.split(':');
        return { text: id.join(':'), attributes: { schemeID: scheme ?? '' } };
      }
      case 'legal-id': {
        const scheme = legalIdScheme(valueAt(instance, 'address.country') as string | undefined, value);
        return { text: value, attributes: scheme ? { schemeID: scheme } : {} };
      }
      default:
        return { text: value };
    }
  }

  /** A group's terms, then its groups; a group that does not repeat only gathers terms, written under its path from the parent. */
  group(name: GroupName, instance: Record<string, unknown>, element: Node, base = ''): void {
    for (const term of termsOf(name)) {
      const value = valueAt(instance, term.json);
      if (typeof value !== 'string' || value.trim() === '') continue;
      const { text, attributes } = this.encode(term, value, instance);
      if (text.trim() === '') continue;
      this.put(element, joinPaths(base, this.pathOf(term)), text, attributes);
    }
    for (const child of childGroups(name)) {
      const value = valueAt(instance, child.json);
      if (!child.repeats) {
        if (value && typeof value === 'object')
          this.group(child.name, value as Record<string, unknown>, element, joinPaths(base, this.pathOf(child)));
        continue;
      }
      for (const each of (value as Record<string, unknown>[] | undefined) ?? []) {
        const made = this.element(element, joinPaths(base, this.pathOf(child)), true);
        this.group(child.name, each, made);
        for (const [path, fixed] of Object.entries(this.syntax.fixed(child))) this.put(made, path, fixed);
      }
    }
  }
}

/** Adds the children every element of a kind has (companions), before ordering. */
function accompanied(node: Node, writer: TermWriter, syntax: XmlSyntax): void {
  node.children.forEach((child) => accompanied(child, writer, syntax));
  for (const [path, value] of Object.entries(syntax.companions[node.name] ?? {}))
    writer.put(node, path, writer.companionText(value));
}

/** Children in the order the syntax's schema sequences them; a pair the sequences do not order is a mistake in them. */
function ordered(node: Node, syntax: XmlSyntax): void {
  const sequence = syntax.sequences[node.name];
  const names = new Set(node.children.map((child) => child.name));
  if (names.size > 1) {
    if (!sequence) throw new Error(`${syntax.name}: no sequence for the children of ${node.name}`);
    const rank = (child: Node) => {
      const index = sequence.indexOf(child.name);
      if (index < 0) throw new Error(`${syntax.name}: ${child.name} is not in the sequence of ${node.name}`);
      return index;
    };
    node.children.sort((a, b) => rank(a) - rank(b));
  }
  node.children.forEach((child) => ordered(child, syntax));
}

function serialise(node: Node, parent: XMLBuilder, syntax: XmlSyntax): void {
  const [prefix] = node.name.split(':');
  const attributes = Object.fromEntries(
    Object.entries(node.attributes).map(([key, value]) => [key, literalAttribute(value)]),
  );
  const element = parent.ele(syntax.namespaces[prefix!]!, node.name, attributes);
  if (node.text !== undefined) element.txt(literal(node.text));
  for (const child of node.children) serialise(child, element, syntax);
}

export function writeTerms(syntax: XmlSyntax, document: TermDocument): string {
  const writer = new TermWriter(syntax, document);
  const rootElement = syntax.root(document.type);
  const root = newNode(rootElement.name);
  writer.group(groupNamed('document').name, document, root);
  for (const path of syntax.always) writer.element(root, path);
  accompanied(root, writer, syntax);
  ordered(root, syntax);
  const declarations = Object.fromEntries(
    Object.entries(syntax.namespaces).map(([name, uri]) => [`xmlns:${name}`, uri]),
  );
  const xml = create({ version: '1.0', encoding: 'UTF-8' }).ele(rootElement.namespace, rootElement.name, declarations);
  for (const child of root.children) serialise(child, xml, syntax);
  return xml.end({ prettyPrint: true, wellFormed: true });
}
