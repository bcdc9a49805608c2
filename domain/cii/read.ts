import type { TermDocument } from '../terms/document';
import { TermReader } from '../terms/read';
import { documentView } from '../terms/view';
import type { UblReadResult } from '../ubl/received-view';
import { Reading } from '../ubl/accounted-reader';
import { parseBounded, UBL_BOUNDS } from '../xml-bounds';
import type { XmlElement } from '../xml-tree';
import { CII_NS, CII_SYNTAX } from './syntax';

/**
 * A UN/CEFACT CII CrossIndustryInvoice (EN 16931 CII syntax) read into the
 * JSON a client posts, as domain/ubl/received-reader.ts reads UBL: the terms the table
 * maps (domain/terms/read.ts) made the JSON view (domain/terms/view.ts),
 * and what the view does not carry named by CII path in `unmapped`.
 */

/** @internal */
export function readCii(xml: string | Buffer): UblReadResult {
  const parsed = parseBounded(xml, UBL_BOUNDS);
  return 'root' in parsed ? readCiiTree(parsed.root) : parsed;
}

/** A parsed CrossIndustryInvoice (its root); another root is unsupported. */
export function readCiiTree(root: XmlElement): UblReadResult {
  if (root.namespace !== CII_NS.rsm || root.name !== 'CrossIndustryInvoice') {
    return {
      unsupported: `the root element is {${root.namespace}}${root.name}, not a UN/CEFACT CII CrossIndustryInvoice`,
    };
  }
  const r = new Reading(root, CII_NS);
  const reader = new TermReader(CII_SYNTAX, r);
  const terms = reader.group('document', root) as Partial<TermDocument>;
  reader.companions();
  for (const path of CII_SYNTAX.always) r.understood(r.one(root, path));
  // One root for both: the type code tells a credit note.
  return documentView(reader, r, terms, terms.type_code === '381' ? 'credit_note' : 'invoice');
}
