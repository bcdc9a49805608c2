import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';

import type { Environment } from '../environment';

/**
 * What every reading of a sandbox document says: sandbox keys are free and nobody checks who holds
 * them, so the seller a sandbox document names is whatever its sender wrote. Plain ASCII, so the PDF's
 * standard font can draw it and a text extractor reads it back whole.
 */
export const SANDBOX_NOTICE = "SANDBOX - the sender's identity has not been verified. This document was not sent on the Peppol network.";

/** The notice a rendering of a document in `environment` carries: the sandbox's, and none for live documents, whose seller is the KYC-verified company. */
export const renderingNoticeFor = (environment: Environment): string | undefined => (environment === 'sandbox' ? SANDBOX_NOTICE : undefined);

const BAND_HEIGHT = 16;
const MARGIN = 6;
const LARGEST_TEXT = 9;
const RED = rgb(0.69, 0, 0.13);

/**
 * The PDF with `notice` stamped across the top edge of every page, on a red band above the layout's own
 * top margin, so no page of it can be shown or printed without it.
 */
export async function stampedPdf(pdf: Uint8Array, notice: string): Promise<Buffer> {
  const document = await PDFDocument.load(pdf);
  const font = await document.embedFont(StandardFonts.HelveticaBold);
  for (const page of document.getPages()) {
    const { width, height } = page.getSize();
    const size = Math.min(LARGEST_TEXT, (LARGEST_TEXT * (width - 2 * MARGIN)) / font.widthOfTextAtSize(notice, LARGEST_TEXT));
    page.drawRectangle({ x: 0, y: height - BAND_HEIGHT, width, height: BAND_HEIGHT, color: RED });
    page.drawText(notice, {
      x: (width - font.widthOfTextAtSize(notice, size)) / 2,
      y: height - BAND_HEIGHT + (BAND_HEIGHT - size) / 2 + 1,
      size,
      font,
      color: rgb(1, 1, 1),
    });
  }
  return Buffer.from(await document.save());
}
