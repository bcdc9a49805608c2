import { SaxesParser } from 'saxes';

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
    if (passed === 'doctype') return { ok: false, problem: 'doctype', message: `line ${parser.line}, column ${parser.column}: a DOCTYPE declaration; UBL takes no DTD, entity or external reference` };
    if (passed) {
      return { ok: false, problem: passed, limit: passed === 'too_deep' ? bounds.maxDepth : bounds.maxElements, line: parser.line, column: parser.column };
    }
    // saxes prefixes "line:column: "; said in words, as the validator's own answer says it.
    const message = (err as Error).message.replace(/^\d+:\d+: /, '').replace(/\.$/, '');
    return { ok: false, problem: 'not_well_formed', message: `line ${parser.line}, column ${parser.column}: ${message}` };
  }
  return { ok: true, elements, depth: deepest };
}

/** A failed check in words, for a received document's finding and its JSON view's problem. */
export function boundsProblem(check: Exclude<XmlBoundsCheck, { ok: true }>): string {
  if (check.problem === 'not_well_formed') return `not well-formed XML: ${check.message}`;
  if (check.problem === 'doctype') return `not accepted XML: ${check.message}`;
  return `the XML is ${check.problem === 'too_deep' ? 'nested deeper than' : 'made of more elements than'} ${check.limit} (line ${check.line}, column ${check.column})`;
}
