import type { TermDocument } from '../terms/document';
import { writeTerms } from '../terms/write';
import { UBL_SYNTAX } from './syntax';

/** A document's terms as a Peppol BIS Billing 3.0 UBL Invoice or CreditNote, written by the term table. */
export const writeUbl = (document: TermDocument): string => writeTerms(UBL_SYNTAX, document);
