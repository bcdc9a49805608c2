import { SaxesParser } from 'saxes';
import { parseXml, XmlError, type XmlElement } from './xml-tree';

/**
 * How much structure an XML document from outside may have before anything
 * expensive reads it. The official rules cost far more than a document's
 * size suggests when it nests deeply or holds very many elements (a
 * schematron asks each element about its ancestors and siblings), so one
 * streaming pass measures both and stops at the first limit passed, before
 * the document reaches the validator.
 */

export interface XmlBounds {
  /** Deepest element nesting; a UBL invoice nests about 7 levels, an SBD around it 3 more. */
  maxDepth: number;
  /** Most elements in the whole document. */
  maxElements: number;
}

/**
 * UBL from outside: a 1,000-line invoice with allowances, charges and notes
 * on every line holds some 40,000 elements and nests 8 levels; extensions and
 * signatures add a few. The limits leave room for that and stop the
 * documents whose validation would run for minutes. A DOCTYPE is refused
 * outright, wherever a document comes from.
 */
export const UBL_BOUNDS: XmlBounds = { maxDepth: 64, maxElements: 100_000 };

export type XmlBoundsCheck =
  | { ok: true; elements: number; depth: number }
  | { ok: false; problem: 'not_well_formed'; message: string }
  | { ok: false; problem: 'doctype'; message: string }
  | { ok: false; problem: 'too_deep' | 'too_many_elements'; limit: number; line: number; column: number };

/** Thrown inside the parser's handlers to stop it at the first limit passed. */
class LimitPassed extends Error {}

export function checkXmlBounds(xml: string | Buffer, bounds: XmlBounds): XmlBoundsCheck {
  const parser = new SaxesParser({ position: true });
  let depth = 0;
  let deepest = 0;
  let elements = 0;
  let passed: 'too_deep' | 'too_many_elements' | 'doctype' | undefined;
  // UBL never needs a DTD: a DOCTYPE (with its entities, external or not) is refused as the validator and our access point refuse it.
  parser.on('doctype', () => {
    passed = 'doctype';
    throw new LimitPassed();
  });
  parser.on('opentagstart', () => {
    elements += 1;
    depth += 1;
    deepest = Math.max(deepest, depth);
    if (depth > bounds.maxDepth) passed = 'too_deep';
    else if (elements > bounds.maxElements) passed = 'too_many_elements';
    if (passed) throw new LimitPassed();
  });
  parser.on('closetag', () => {
    depth -= 1;
  });
  try {
    parser.write(typeof xml === 'string' ? xml : xml.toString('utf8')).close();
  } catch (err) {
    if (passed === 'doctype')
      return {
        ok: false,
        problem: 'doctype',
        message: `line ${parser.line}, column ${parser.column}: a DOCTYPE declaration; UBL takes no DTD, entity or external reference`,
      };
    if (passed) {
      return {
        ok: false,
        problem: passed,
        limit: passed === 'too_deep' ? bounds.maxDepth : bounds.maxElements,
        line: parser.line,
        column: parser.column,
      };
    }
    // saxes prefixes "line:column: "; said in words, as the validator's own answer says it.
    const message = (err as Error).message.replace(/^\d+:\d+: /, '').replace(/\.$/, '');
    return {
      ok: false,
      problem: 'not_well_formed',
      message: `line ${parser.line}, column ${parser.column}: ${message}`,
    };
  }
  return { ok: true, elements, depth: deepest };
}

const BYTE_ORDER_MARKS: [string, number[]][] = [
  ['UTF-32', [0x00, 0x00, 0xfe, 0xff]],
  ['UTF-32', [0xff, 0xfe, 0x00, 0x00]],
  ['UTF-16', [0xfe, 0xff]],
  ['UTF-16', [0xff, 0xfe]],
];

/**
 * The encoding of an XML document that is not UTF-8, as its byte order mark or its declaration names it; undefined for
 * UTF-8. Peppol BIS Billing 3.0 takes UTF-8 only, and saying which encoding was sent is clearer than the parse error
 * the bytes would otherwise make.
 */
export function foreignEncoding(bytes: Uint8Array): string | undefined {
  const marked = BYTE_ORDER_MARKS.find(([, mark]) => mark.every((byte, index) => bytes[index] === byte));
  if (marked) return marked[0];
  const declared = /^(?:\xEF\xBB\xBF)?<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(
    Buffer.from(bytes.subarray(0, 200)).toString('latin1'),
  )?.[1];
  return declared && !/^utf-?8$/i.test(declared) ? declared : undefined;
}

/** A failed check in words, for a received document's finding and its JSON view's problem. */
export function boundsProblem(check: Exclude<XmlBoundsCheck, { ok: true }>): string {
  if (check.problem === 'not_well_formed') return `not well-formed XML: ${check.message}`;
  if (check.problem === 'doctype') return `not accepted XML: ${check.message}`;
  return `the XML is ${check.problem === 'too_deep' ? 'nested deeper than' : 'made of more elements than'} ${check.limit} (line ${check.line}, column ${check.column})`;
}

/** XML from outside (text or UTF-8 bytes, a byte order mark left out), measured against the bounds before it is parsed: its root, or why there is none to read. */
export function parseBounded(
  document: string | Buffer,
  bounds: XmlBounds,
): { root: XmlElement } | { unsupported: string } {
  const xml = (typeof document === 'string' ? document : document.toString('utf8')).replace(/^\uFEFF/, '');
  const check = checkXmlBounds(xml, bounds);
  if (!check.ok) return { unsupported: boundsProblem(check) };
  try {
    return { root: parseXml(xml) };
  } catch (err) {
    if (err instanceof XmlError) return { unsupported: `not well-formed XML: ${err.message}` };
    throw err;
  }
}
