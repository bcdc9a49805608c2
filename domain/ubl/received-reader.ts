import type { TermDocument } from '../terms/document';
import { TermReader } from '../terms/read';
import { documentView } from '../terms/view';
import { parseBounded, UBL_BOUNDS } from '../xml-bounds';
import type { XmlElement } from '../xml-tree';
import type { ReceivedUbl, UblReadResult } from './received-view';
import { implied, Reading } from './accounted-reader';
import { UBL_SYNTAX } from './syntax';
import { NS } from './xml';

/**
 * A received UBL Invoice or CreditNote (Peppol BIS Billing 3.0, EN 16931
 * core, XRechnung or PINT A-NZ) read into the JSON a client posts to
 * POST /v1/documents: the terms the table maps (domain/terms/read.ts), the
 * inverse of the UBL writer, made the JSON view (domain/terms/view.ts).
 * Totals are not part of that JSON (the service computes them), so the
 * document's own are given beside it as stated; so are the embedded
 * attachments, decoded. What the JSON cannot hold is listed by UBL path in
 * `unmapped`, never guessed at: a value is carried as it is or named there.
 *
 * A value the UBL must have (the number, the issue date, a line's name,
 * quantity and price …) is not made up: when a document lacks one, its JSON
 * view lacks it too and does not parse, which tells whoever reads it what is
 * missing.
 */

export type { ReceivedUbl, StatedTotals, UblReadResult } from './received-view';

const ROOTS: Record<string, { name: string; kind: ReceivedUbl['kind'] }> = {
  [NS.Invoice]: { name: 'Invoice', kind: 'invoice' },
  [NS.CreditNote]: { name: 'CreditNote', kind: 'credit_note' },
};

export function readUbl(xml: string | Buffer): UblReadResult {
  const parsed = parseBounded(xml, UBL_BOUNDS);
  return 'root' in parsed ? readUblTree(parsed.root) : parsed;
}

/** A parsed UBL Invoice or CreditNote (its root); another root is unsupported. */
export function readUblTree(root: XmlElement): UblReadResult {
  const known = ROOTS[root.namespace];
  if (known?.name !== root.name)
    return { unsupported: `the root element is {${root.namespace}}${root.name}, not a UBL 2.1 Invoice or CreditNote` };
  const r = new Reading(root);
  const reader = new TermReader(UBL_SYNTAX, r, known.kind);
  const terms = reader.group('document', root) as Partial<TermDocument>;
  reader.companions();
  implied(r, r.one(root, 'cbc:UBLVersionID'), '2.1');
  return documentView(reader, r, terms, known.kind);
}
