import type { Browser } from 'playwright-core';

import { describeInBrowser, launchChromium } from '../support/browser';
import { sharedStack } from '../support/test-stack';

/**
 * The served API reference in a real browser: Debian's Chromium, driven by
 * playwright-core. Where no browser is installed the test says so and
 * passes without running (docs/testing.md).
 */

const inBrowser = describeInBrowser('reference-page');

inBrowser('GET /docs in headless Chromium', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('renders the operations and webhook events by name, and no request leaves the host', async () => {
    const api = new URL(sharedStack().apiUrl);
    const page = await browser.newPage();
    const requested: string[] = [];
    /** Requests to other hosts that got an answer (must be none), and those the browser refused, with why. */
    const answeredElsewhere: string[] = [];
    const refusedElsewhere: string[] = [];
    const foreign = (url: string) =>
      !url.startsWith(`${api.origin}/`) && !url.startsWith('blob:') && !url.startsWith('data:');
    page.on('request', (request) => requested.push(request.url()));
    page.on('response', (answer) => {
      if (foreign(answer.url())) answeredElsewhere.push(answer.url());
    });
    page.on('requestfailed', (request) => {
      if (foreign(request.url())) refusedElsewhere.push(`${request.url()} ${request.failure()?.errorText ?? ''}`);
    });
    const response = await page.goto(`${api.origin}/docs`);
    expect(response?.status()).toBe(200);

    // Each operation is a heading of the reference's middle column, under its summary.
    const heading = (name: string) => page.locator('h2', { hasText: name }).first();
    await heading('Validate, convert to Peppol BIS Billing 3.0 UBL, queue and send a document').waitFor({
      timeout: 30_000,
    });
    for (const name of [
      'Send up to 100 documents of one company, each processed on its own',
      'Find where a Peppol participant is registered (the SML step only)',
    ]) {
      await expect(heading(name).isVisible()).resolves.toBe(true);
    }
    await expect(page.locator('h2', { hasText: 'document.delivered' }).first().isVisible()).resolves.toBe(true);

    // Redoc's bundle asks for its vendor's logo from a CDN; the page's Content-Security-Policy stops it in the browser.
    expect(answeredElsewhere).toEqual([]);
    expect(refusedElsewhere).toEqual(requested.filter(foreign).map((url) => `${url} csp`));
    expect(requested).toEqual(
      expect.arrayContaining([`${api.origin}/docs/redoc.standalone.js`, `${api.origin}/v1/openapi.json`]),
    );
    await page.close();
  }, 90_000);
});
