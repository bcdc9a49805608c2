import { fileStemOf } from '../text';

/**
 * The document's own rendering, embedded as a supporting document (BG-24) when the sender asks for
 * it (`attach_pdf`), so a buyer without an e-invoice viewer still has something to read.
 *
 * It goes into UBL this service wrote, where the supporting documents end: just before the seller
 * (`cac:AccountingSupplierParty`, which every invoice and credit note has, and which follows every
 * `cac:AdditionalDocumentReference` in the UBL order of both). Every value in it is the service's
 * own (a fixed id and description, a file name of safe characters, base64), so nothing needs escaping.
 */
const RENDERED_PDF_ID = 'RENDERED-PDF';
/** The stored-document limit leaves a row about 1 MiB; a PDF this large takes at most 700 KiB of it in base64. */
export const MAX_RENDERED_PDF_BYTES = 512 * 1024;
const SELLER = '<cac:AccountingSupplierParty>';

/** Sellers in German-speaking countries get the PDF's German labels; everyone else the English ones (the renderer has those two). */
const GERMAN_SPEAKING = new Set(['DE', 'AT', 'LI']);
export const renderingLanguageOf = (sellerCountry: string | undefined): 'de' | 'en' =>
  GERMAN_SPEAKING.has(sellerCountry ?? '') ? 'de' : 'en';

export const hasRenderedPdf = (ubl: string): boolean => ubl.includes(`<cbc:ID>${RENDERED_PDF_ID}</cbc:ID>`);

/** The rendering `withRenderedPdf` embedded, or null: a document sent with `attach_pdf` is not rendered twice. */
export function renderedPdfIn(ubl: string): Buffer | null {
  const at = ubl.indexOf(`<cbc:ID>${RENDERED_PDF_ID}</cbc:ID>`);
  if (at < 0) return null;
  const open = ubl.indexOf('>', ubl.indexOf('<cbc:EmbeddedDocumentBinaryObject', at)) + 1;
  const close = ubl.indexOf('</cbc:EmbeddedDocumentBinaryObject>', open);
  return open > 0 && close > open ? Buffer.from(ubl.slice(open, close), 'base64') : null;
}

export function withRenderedPdf(ubl: string, pdf: Buffer, documentNumber: string): string {
  const at = ubl.indexOf(SELLER);
  if (at < 0) throw new Error('the UBL has no seller party to put the rendered PDF before');
  const lineStart = ubl.lastIndexOf('\n', at) + 1;
  const indent = ubl.slice(lineStart, at);
  const reference = [
    '<cac:AdditionalDocumentReference>',
    `  <cbc:ID>${RENDERED_PDF_ID}</cbc:ID>`,
    '  <cbc:DocumentDescription>This document, rendered as a PDF for reading</cbc:DocumentDescription>',
    '  <cac:Attachment>',
    `    <cbc:EmbeddedDocumentBinaryObject mimeCode="application/pdf" filename="${fileStemOf(documentNumber)}.pdf">${pdf.toString('base64')}</cbc:EmbeddedDocumentBinaryObject>`,
    '  </cac:Attachment>',
    '</cac:AdditionalDocumentReference>',
  ]
    .map((line) => `${indent}${line}\n`)
    .join('');
  return `${ubl.slice(0, lineStart)}${reference}${ubl.slice(lineStart)}`;
}
