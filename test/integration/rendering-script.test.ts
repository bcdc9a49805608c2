import { readFileSync } from 'node:fs';

import type { Browser, Page } from 'playwright-core';

import { convertDocument } from '../../domain/documents/convert';
import { documentInputSchema } from '../../domain/documents/input';
import { belgianBuyerCompany, belgianSeller, validFixtures } from '../fixtures/documents';
import { callAs } from '../support/accounts';
import { sendingAccount } from '../support/documents';
import { callApi } from '../support/http';
import { describeInBrowser, launchChromium } from '../support/browser';
import { sharedStack } from '../support/test-stack';
import { until } from '../support/until';

/**
 * A document's values never run as script in its HTML rendering, opened in Debian's Chromium: KoSIT's
 * stylesheet put BT-122 into an `onClick` and BT-124 into an `href`, and offered an attachment in its
 * declared type. Each payload sets `window.name`; the page is clicked through (every tab, every link
 * and attachment) and `window.name` must stay empty, with the served Content-Security-Policy and
 * without it (the HTML saved, or shown by an app that fetched it through the SDK or the MCP server).
 * Where no browser is installed the test says so and passes without running (docs/testing.md).
 */

const inBrowser = describeInBrowser('rendering-script');

const fixture = validFixtures.find((candidate) => candidate.name === 'standard rate S, one line')!.body;

/** BT-122 that closes the onClick's string and call and runs its own (the stylesheet writes `downloadData('<BT-122>')`). */
const BREAKOUT_ID = "x'),window.name='pwned-bt122',('";
const HTML_ATTACHMENT = Buffer.from(
  '<html><body><script>window.name = "pwned-attachment"</script></body></html>',
).toString('base64');

const reference = (inner: string) => `<cac:AdditionalDocumentReference>${inner}</cac:AdditionalDocumentReference>`;
const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/'/g, '&apos;');

/** The example invoice with supporting documents (BG-24) put where UBL has them, before the seller. */
function ublWith(references: string[]): string {
  const converted = convertDocument(documentInputSchema.parse(fixture), belgianSeller);
  if (!converted.ok) throw new Error('the standard fixture is refused');
  return converted.ubl.replace('<cac:AccountingSupplierParty>', `${references.join('')}<cac:AccountingSupplierParty>`);
}

/** BT-122 breaking out, with an attachment of the type `mime`; BT-124 a `javascript:` URL; a harmless https BT-124 beside them. */
const payloadReferences = (mime: string) => [
  reference(
    `<cbc:ID>${escapeXml(BREAKOUT_ID)}</cbc:ID><cac:Attachment><cbc:EmbeddedDocumentBinaryObject mimeCode="${mime}" filename="evil.html">${HTML_ATTACHMENT}</cbc:EmbeddedDocumentBinaryObject></cac:Attachment>`,
  ),
  reference(
    `<cbc:ID>EXT-1</cbc:ID><cac:Attachment><cac:ExternalReference><cbc:URI>${escapeXml("javascript:window.name='pwned-bt124'")}</cbc:URI></cac:ExternalReference></cac:Attachment>`,
  ),
  reference(
    '<cbc:ID>EXT-2</cbc:ID><cac:Attachment><cac:ExternalReference><cbc:URI>https://example.com/specification.pdf</cbc:URI></cac:ExternalReference></cac:Attachment>',
  ),
];

const TABS = {
  menueUebersicht: 'uebersicht',
  menueDetails: 'details',
  menueZusaetze: 'zusaetze',
  menueAnlagen: 'anlagen',
  menueLaufzettel: 'laufzettel',
};

/**
 * Clicks every tab (each shows its own panel alone), then every link of the attachments' tab (a
 * download is taken and read), and answers what the downloads were and what `window.name` became.
 */
async function clickThrough(
  page: Page,
): Promise<{ clicked: string[]; downloads: { name: string; bytes: string }[]; windowName: string }> {
  for (const [tab, panel] of Object.entries(TABS)) {
    await page.click(`#${tab}`);
    // Page-side code as text: this project's TypeScript has no DOM types.
    await page.waitForFunction(
      `${JSON.stringify(Object.values(TABS))}.every((id) => (document.getElementById(id).style.display === 'block') === (id === ${JSON.stringify(panel)}))`,
    );
    await expect(page.getAttribute(`#${tab}`, 'class')).resolves.toBe('btnAktiv');
  }
  await page.click('#menueAnlagen');
  const clicked: string[] = [];
  const downloads: { name: string; bytes: string }[] = [];
  // Every link a reader can see but the https one, which would only take the page away (and this machine has no way out).
  for (const link of await page.locator('#anlagen a:not([href^="https:"])').all()) {
    if (!(await link.isVisible())) continue;
    clicked.push((await link.textContent()) ?? '');
    const download = (await link.getAttribute('download')) !== null ? page.waitForEvent('download') : undefined;
    await link.click();
    if (download) {
      const taken = await download;
      downloads.push({ name: taken.suggestedFilename(), bytes: readFileSync(await taken.path()).toString('base64') });
    }
  }
  // Anything a click started has had its turn once the page answers again.
  await page.evaluate('new Promise((resolve) => setTimeout(resolve, 0))');
  return { clicked, downloads, windowName: await page.evaluate<string>('window.name') };
}

inBrowser('a rendering in headless Chromium', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  /** The served page, opened from the API with its headers, then the same HTML set into a blank page with no policy at all. */
  async function checkServed(key: string, documentId: string) {
    const served = await until(
      'the rendering',
      () => callAs(key, `/v1/documents/${documentId}/html`),
      (response) => response.status === 200,
    );
    expect(served.text).toContain('pwned-bt122');
    expect(served.text).toContain('pwned-bt124');
    const apiUrl = new URL(sharedStack().apiUrl);
    for (const withPolicy of [true, false]) {
      const context = await browser.newContext({ acceptDownloads: true });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));
      let policy: string | undefined;
      if (withPolicy) {
        // The API's answer as a browser gets it, headers included; the key goes as the header it takes.
        await page.route(`${apiUrl.origin}/**`, (route) =>
          route.continue({ headers: { ...route.request().headers(), authorization: `Bearer ${key}` } }),
        );
        const response = await page.goto(`${apiUrl.origin}/v1/documents/${documentId}/html`);
        expect(response?.status()).toBe(200);
        policy = response?.headers()['content-security-policy'];
      } else {
        await page.setContent(served.text);
      }
      const { clicked, downloads, windowName } = await clickThrough(page);
      expect(clicked).toEqual(expect.arrayContaining(["javascript:window.name='pwned-bt124'", 'Öffnen']));
      expect({ withPolicy, windowName, errors }).toEqual({ withPolicy, windowName: '', errors: [] });
      if (withPolicy) expect(policy).toMatch(/; script-src 'sha256-[A-Za-z0-9+/]+=*';/);
      expect(downloads).toEqual([{ name: 'evil.html.bin', bytes: HTML_ATTACHMENT }]);
      expect(await page.getAttribute('a[download]', 'href')).toMatch(/^data:application\/octet-stream;base64,/);
      // The https reference stays a link; the javascript: one is text.
      expect(await page.locator('a[href="https://example.com/specification.pdf"]').count()).toBe(1);
      expect(await page.locator('a[href^="javascript"], [onclick]').count()).toBe(0);
      await context.close();
    }
  }

  it('when a received document carries a BT-122 that breaks out of the onClick, a javascript: BT-124 and a text/html attachment, then clicking through its page runs none of them, with or without the policy, and its tabs switch', async () => {
    const account = await sendingAccount();
    const buyer = await callAs(account.key, '/v1/companies', { method: 'POST', body: belgianBuyerCompany });
    expect(buyer.status).toBe(201);
    const posted = await callApi('/v1/sandbox/inbound', {
      method: 'POST',
      headers: { Authorization: `Bearer ${account.key}`, 'Content-Type': 'application/xml' },
      body: ublWith(payloadReferences('text/html')),
    });
    expect(posted.status).toBe(202);
    await checkServed(account.key, posted.body.id as string);
  }, 120_000);

  it('when a sender posts a UBL with the same payloads (its attachment declared as CSV), then its page runs none of them either', async () => {
    const sender = await sendingAccount();
    const posted = await callApi(`/v1/documents?company_id=${sender.companyId}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${sender.key}`, 'Content-Type': 'application/xml' },
      body: ublWith(payloadReferences('text/csv')),
    });
    expect(posted.status).toBe(202);
    await checkServed(sender.key, posted.body.id as string);
  }, 120_000);
});
