import { DOCUMENT_LIMITS } from './documents/input';

/**
 * The most lines a document may have to be rendered on request: as many as a document sent here may
 * have. Its PDF is the costliest rendering: for a 1,000-line invoice with notes, an allowance and a
 * charge on every line, 13 s of a worker on two idle cores and 30 s on busy ones (docs/benchmarks.md).
 * A received one may have more; it is refused rather than hold its lane for minutes.
 */
export const MAX_RENDERED_LINES = DOCUMENT_LIMITS.lines;

/** An invoice's or credit note's line (not a sub-line), whatever the prefix of its namespace. */
const LINE_TAG = /<(?:[A-Za-z_][\w.-]*:)?(?:InvoiceLine|CreditNoteLine)[\s/>]/g;

/** How many lines a UBL document has (a line's tag in a comment counts too: never fewer than it has). */
export function documentLines(xml: string): number {
  return xml.match(LINE_TAG)?.length ?? 0;
}
