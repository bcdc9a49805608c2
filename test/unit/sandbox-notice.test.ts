import { PDFDocument } from 'pdf-lib';

import { finishedRendering } from '../../domain/rendering/finish';
import { safeRenderedPage } from '../../domain/rendering/safe-html';
import { renderingNoticeFor, SANDBOX_NOTICE } from '../../domain/rendering/sandbox-notice';

async function pdfOfPages(count: number): Promise<Buffer> {
  const document = await PDFDocument.create();
  for (let page = 0; page < count; page += 1)
    document.addPage([595.28, 841.89]).drawText(`Page ${page + 1} of the invoice`, { x: 50, y: 700 });
  return Buffer.from(await document.save());
}

const html = Buffer.from(
  '<!DOCTYPE HTML><html><head><title>XRechnung</title></head><body><div id="uebersicht">Overview</div></body></html>',
);

describe('a rendering says when its sender is unverified', () => {
  it('when the document is a sandbox one, then its readings carry the notice; a live one none', () => {
    expect(renderingNoticeFor('sandbox')).toBe(SANDBOX_NOTICE);
    expect(renderingNoticeFor('live')).toBeUndefined();
    expect(SANDBOX_NOTICE).toMatch(/sender's identity has not been verified/);
  });

  it('when a sandbox document is rendered, then its HTML has the banner and its PDF is left as the renderer stamped it', async () => {
    const pdf = await pdfOfPages(2);
    expect((await finishedRendering(pdf, 'pdf', 'sandbox', safeRenderedPage)).equals(pdf)).toBe(true);
    const page = (await finishedRendering(html, 'html', 'sandbox', safeRenderedPage)).toString();
    expect(page).toContain('<body><div class="einvoice-notice" role="alert"');
    expect(page).toContain(`>${SANDBOX_NOTICE}</div>`);
  });

  it("when a live document is rendered, then its PDF is the renderer's byte for byte and its HTML has no banner", async () => {
    const pdf = await pdfOfPages(2);
    expect((await finishedRendering(pdf, 'pdf', 'live', safeRenderedPage)).equals(pdf)).toBe(true);
    const page = (await finishedRendering(html, 'html', 'live', safeRenderedPage)).toString();
    expect(page).not.toContain('einvoice-notice');
    expect(page).not.toContain('verified');
  });
});
