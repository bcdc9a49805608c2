import { CII_NS } from '../cii/syntax';
import { readCiiTree } from '../cii/read';
import { readUblTree } from '../ubl/received-reader';
import type { ReceivedUbl } from '../ubl/received-view';
import { parseBounded, UBL_BOUNDS } from '../xml-bounds';

/** The syntaxes a business document arrives in. */
export type Syntax = 'ubl' | 'cii';

export const WANTED_DOCUMENT = 'a UBL 2.1 Invoice or CreditNote, or a UN/CEFACT CII CrossIndustryInvoice';

/**
 * An invoice or credit note in either syntax, read into the JSON view: UBL
 * (domain/ubl/received-reader.ts) or, by its root, CII (domain/cii/read.ts). The
 * XML is measured and parsed once.
 */
/** A business document as read: its JSON view and what comes with it, and its syntax; or why it is none. */
export type ReadDocument = (ReceivedUbl & { syntax: Syntax }) | { unsupported: string };

export function readBusinessDocument(xml: string | Buffer): ReadDocument {
  const parsed = parseBounded(xml, UBL_BOUNDS);
  if (!('root' in parsed)) return parsed;
  const { root } = parsed;
  const syntax: Syntax = root.namespace === CII_NS.rsm ? 'cii' : 'ubl';
  const read = syntax === 'cii' ? readCiiTree(root) : readUblTree(root);
  if ('unsupported' in read)
    return { unsupported: `the root element is {${root.namespace}}${root.name}, not ${WANTED_DOCUMENT}` };
  return { ...read, syntax };
}
