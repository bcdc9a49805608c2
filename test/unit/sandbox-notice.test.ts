import { PDFDocument } from 'pdf-lib';

import { finishedRendering } from '../../domain/rendering/finish';
import { safeRenderedPage } from '../../domain/rendering/safe-html';
import { renderingNoticeFor, SANDBOX_NOTICE, stampedPdf } from '../../domain/rendering/sandbox-notice';
import { pdfText } from '../support/rendering';

async function pdfOfPages(count: number): Promise<Buffer> {
  const document = await PDFDocument.create();
  for (let page = 0; page < count; page += 1) document.addPage([595.28, 841.89]).drawText(`Page ${page + 1} of the invoice`, { x: 50, y: 700 });
  return Buffer.from(await document.save());
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;
const html = Buffer.from('<!DOCTYPE HTML><html><head><title>XRechnung</title></head><body><div id="uebersicht">Overview</div></body></html>');

describe('a rendering says when its sender is unverified', () => {
  it('when the document is a sandbox one, then its readings carry the notice; a live one none', () => {
    expect(renderingNoticeFor('sandbox')).toBe(SANDBOX_NOTICE);
    expect(renderingNoticeFor('live')).toBeUndefined();
    expect(SANDBOX_NOTICE).toMatch(/sender's identity has not been verified/);
  });

  it('when a PDF is stamped, then every page carries the notice and keeps its own text', async () => {
    const text = await pdfText(await stampedPdf(await pdfOfPages(3), SANDBOX_NOTICE));
    expect(occurrences(text, SANDBOX_NOTICE)).toBe(3);
    for (const page of [1, 2, 3]) expect(text).toContain(`Page ${page} of the invoice`);
  });

  it('when a sandbox document is rendered, then its PDF is stamped and its HTML has the banner', async () => {
    expect(await pdfText(await finishedRendering(await pdfOfPages(2), 'pdf', 'sandbox', safeRenderedPage))).toContain(SANDBOX_NOTICE);
    const page = (await finishedRendering(html, 'html', 'sandbox', safeRenderedPage)).toString();
    expect(page).toContain('<body><div class="einvoice-notice" role="alert"');
    expect(page).toContain(`>${SANDBOX_NOTICE}</div>`);
  });

  it('when a live document is rendered, then its PDF is the renderer\'s byte for byte and its HTML has no banner', async () => {
    const pdf = await pdfOfPages(2);
    expect((await finishedRendering(pdf, 'pdf', 'live', safeRenderedPage)).equals(pdf)).toBe(true);
    const page = (await finishedRendering(html, 'html', 'live', safeRenderedPage)).toString();
    expect(page).not.toContain('einvoice-notice');
    expect(page).not.toContain('verified');
  });
});
