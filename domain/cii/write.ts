import type { TermDocument } from '../terms/document';
import { writeTerms } from '../terms/write';
import { CII_SYNTAX } from './syntax';

/** A document's terms as a UN/CEFACT CII CrossIndustryInvoice (EN 16931 CII syntax), written by the term table. */
export const writeCii = (document: TermDocument): string => writeTerms(CII_SYNTAX, document);
