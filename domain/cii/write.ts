import type { TermDocument } from '../terms/document';
import { termsOfReading } from '../terms/from-reading';
import { readUbl } from '../ubl/received-reader';
import { writeTerms } from '../terms/write';
import { CII_SYNTAX } from './syntax';

/**
 * A document's terms as a UN/CEFACT CII CrossIndustryInvoice (EN 16931 CII syntax), written by the term table.
 * @internal
 */
export const writeCii = (document: TermDocument): string => writeTerms(CII_SYNTAX, document);

/**
 * The specification a Factur-X's CII claims (BT-24): EN 16931 itself, Factur-X's "EN 16931" profile. A
 * Peppol BIS or XRechnung document is an EN 16931 invoice too (each is a restriction of it), so the
 * claim holds; Factur-X readers know no other identifier for that profile.
 * @internal
 */
export const FACTURX_SPECIFICATION = 'urn:cen.eu:en16931:2017';

/**
 * A UBL invoice or credit note as CII, with the amounts it states; why not, when it is no UBL invoice to
 * read. `facturx`: as the XML of a Factur-X, claiming {@link FACTURX_SPECIFICATION}.
 */
export function ciiOfUbl(ubl: string | Buffer, { facturx = false } = {}): { cii: string } | { unsupported: string } {
  const read = readUbl(ubl);
  if ('unsupported' in read) return read;
  const terms = termsOfReading(read);
  return { cii: writeCii(facturx ? { ...terms, specification: FACTURX_SPECIFICATION } : terms) };
}
