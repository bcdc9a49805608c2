import { SaxesParser } from 'saxes';

/**
 * XML from other parties (SMP answers) read into a small element tree with
 * namespaces resolved. saxes is strict and never fetches or expands entities
 * a DTD declares, so such XML cannot reach files or the network nor blow up
 * in memory; a document that is not well-formed throws `XmlError`.
 */

export interface XmlElement {
  namespace: string;
  name: string;
  /** Unqualified attributes by name (the only kind SMP XML uses). */
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own text, trimmed. */
  text: string;
}

export class XmlError extends Error {
  override name = 'XmlError';
}

export function parseXml(xml: string): XmlElement {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const open: XmlElement[] = [];
  let root: XmlElement | undefined;
  parser.on('opentag', (tag) => {
    const attributes: Record<string, string> = {};
    for (const attribute of Object.values(tag.attributes)) {
      if (attribute.uri === '') attributes[attribute.local] = attribute.value;
    }
    const element: XmlElement = { namespace: tag.uri, name: tag.local, attributes, children: [], text: '' };
    open.at(-1)?.children.push(element);
    root ??= element;
    open.push(element);
  });
  parser.on('text', (text) => {
    const current = open.at(-1);
    if (current) current.text += text;
  });
  parser.on('cdata', (text) => {
    const current = open.at(-1);
    if (current) current.text += text;
  });
  parser.on('closetag', () => {
    const element = open.pop()!;
    element.text = element.text.trim();
  });
  try {
    parser.write(xml).close();
  } catch (err) {
    throw new XmlError((err as Error).message);
  }
  if (!root) throw new XmlError('no root element');
  return root;
}

/** Direct children with this namespace and local name. */
export const childrenNamed = (element: XmlElement, namespace: string, name: string): XmlElement[] =>
  element.children.filter((child) => child.namespace === namespace && child.name === name);

export const childNamed = (element: XmlElement, namespace: string, name: string): XmlElement | undefined =>
  childrenNamed(element, namespace, name)[0];
