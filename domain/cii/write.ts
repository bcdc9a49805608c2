import type { TermDocument } from '../terms/document';
import { termsOfReading } from '../terms/from-reading';
import { readUbl } from '../ubl/read';
import { writeTerms } from '../terms/write';
import { CII_SYNTAX } from './syntax';

/** A document's terms as a UN/CEFACT CII CrossIndustryInvoice (EN 16931 CII syntax), written by the term table. */
export const writeCii = (document: TermDocument): string => writeTerms(CII_SYNTAX, document);

/** A UBL invoice or credit note as CII, with the amounts it states; why not, when it is no UBL invoice to read. */
export function ciiOfUbl(ubl: string | Buffer): { cii: string } | { unsupported: string } {
  const read = readUbl(ubl);
  return 'unsupported' in read ? read : { cii: writeCii(termsOfReading(read)) };
}
