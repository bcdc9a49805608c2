import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PNG } from 'pngjs';

import { convertDocument } from '../../domain/documents/convert';
import { documentInputSchema } from '../../domain/documents/input';
import { callAs, signUp, type TestAccount } from '../support/accounts';
import { files, waitForKyc } from '../support/kyc';
import { ops } from '../support/ops';
import { callApi } from '../support/http';
import { clientMadeUbl } from '../support/official-examples';
import { until } from '../support/until';
import { receiversOfThisFile, registerWebhook } from '../support/webhook-receiver';
import { describeInBrowser, launchChromium } from '../support/browser';
import { sendingAccount, waitForStatus } from '../support/documents';
import { signInLinksFor } from '../support/sessions';
import { sharedStack } from '../support/test-stack';
import { belgianBuyerCompany, belgianSeller, validFixtures } from '../fixtures/documents';

/**
 * The web app (issue 42) in Debian's Chromium, driven by playwright-core, against the shared stack: a person
 * signs in by the link the mail sink received, and reads the company's documents; the page keeps to its
 * Content-Security-Policy, axe-core finds nothing serious, and it is usable 375 px wide.
 */

const inBrowser = describeInBrowser('web-app');
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical findings on the page as it is (run through the DevTools protocol, which the CSP does not govern). */
async function seriousFindings(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = await page.evaluate<{ id: string; impact: string; nodes: { target: string[] }[] }[]>(
    'axe.run().then((results) => results.violations)',
  );
  return violations
    .filter(({ impact }) => impact === 'serious' || impact === 'critical')
    .map(({ id, nodes }) => `${id}: ${nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/**
 * With UPDATE_APP_SCREENSHOTS=1 (`npm run docs:app`), each screen as docs/app.md shows it: the whole page, with the
 * rendering's frame drawn in where it sits (a page's screenshot leaves out what a frame of another origin draws).
 */
async function screenshot(page: Page, name: string): Promise<void> {
  if (!process.env.UPDATE_APP_SCREENSHOTS) return;
  const dir = path.join(__dirname, '..', '..', 'docs', 'app');
  mkdirSync(dir, { recursive: true });
  const whole = PNG.sync.read(await page.screenshot({ fullPage: true }));
  const frame = page.locator('iframe.rendered');
  if ((await frame.count()) > 0) {
    await frame.scrollIntoViewIfNeeded();
    const box = (await frame.boundingBox())!;
    const at = {
      x: Math.round(box.x + (await page.evaluate<number>('window.scrollX'))),
      y: Math.round(box.y + (await page.evaluate<number>('window.scrollY'))),
    };
    const width = Math.min(Math.round(box.width), whole.width - at.x);
    const height = Math.min(Math.round(box.height), whole.height - at.y);
    PNG.bitblt(PNG.sync.read(await frame.screenshot()), whole, 0, 0, width, height, at.x, at.y);
  }
  writeFileSync(path.join(dir, `${name}.png`), PNG.sync.write(whole));
}

/** What the page logged as a Content-Security-Policy violation: must stay empty. */
function cspViolations(page: Page): string[] {
  const found: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) found.push(message.text());
  });
  return found;
}

/** Signs `email` in on `page` as a person does: the sign-in page, then the emailed link. */
async function signIn(
  page: Page,
  app: string,
  email: string,
  words = { heading: 'Sign in', field: 'Email address', button: 'Send me a sign-in link' },
): Promise<void> {
  await page.goto(app);
  await page.getByRole('heading', { name: words.heading }).waitFor();
  await page.getByLabel(words.field).fill(email);
  await page.getByRole('button', { name: words.button }).click();
  const [link] = await signInLinksFor(email);
  await page.goto(link!);
}

/** An invoice to the account's buyer company, received through the sandbox's inbound endpoint and filed. */
async function receivedInSandbox(account: TestAccount, buyerId: string): Promise<string> {
  const converted = convertDocument(documentInputSchema.parse(validFixtures[0]!.body), belgianSeller);
  if (!converted.ok) throw new Error('the fixture is refused');
  const posted = await callApi('/v1/sandbox/inbound', {
    method: 'POST',
    headers: { Authorization: `Bearer ${account.key}`, 'Content-Type': 'application/xml' },
    body: converted.ubl,
  });
  expect(posted.status).toBe(202);
  await until(
    'the filed document',
    () => callAs(account.key, `/v1/documents/${posted.body.id}?company_id=${buyerId}`),
    (response) => response.status === 200,
  );
  return posted.body.id;
}

inBrowser('the web app in headless Chromium', () => {
  let browser: Browser;
  const app = `${sharedStack().apiUrl}/app`;

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  const receiver = receiversOfThisFile();
  let context: BrowserContext;
  beforeEach(async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  });
  afterEach(() => context?.close());

  it('when a person asks for a link and opens it, then the app shows their company’s documents; the link does not work twice; signing out ends the session', async () => {
    const sender = await sendingAccount();
    const posted = await callAs(sender.key, '/v1/documents', {
      method: 'POST',
      body: { ...validFixtures[0]!.body, company_id: sender.companyId },
    });
    expect(posted.status).toBe(202);
    await waitForStatus(sender.key, posted.body.id, sender.companyId, ['delivered']);

    const page = await context.newPage();
    const violations = cspViolations(page);
    await page.goto(app);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await screenshot(page, 'sign-in');
    expect(await seriousFindings(page)).toEqual([]);
    await page.getByLabel('Email address').fill(sender.email);
    await page.getByRole('button', { name: 'Send me a sign-in link' }).click();
    await page.getByRole('status').filter({ hasText: 'a sign-in link is on its way' }).waitFor();

    const [link] = await signInLinksFor(sender.email);
    await page.goto(link!);
    await page.getByRole('heading', { name: 'Documents' }).waitFor();
    const row = page.getByRole('row', { name: new RegExp(validFixtures[0]!.body.number as string) });
    await row.waitFor();
    await expect(row.textContent()).resolves.toMatch(/Invoice.*Sent.*Delivered/);
    // The token left the address bar, and the session cookie is one no script can read.
    expect(page.url()).toBe(`${app}/documents`);
    const cookies = await context.cookies();
    expect(cookies.find((cookie) => cookie.name === 'einvoice_session')).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
    });
    expect(await page.evaluate('document.cookie')).not.toContain('einvoice_session');
    await screenshot(page, 'documents');
    expect(await seriousFindings(page)).toEqual([]);
    // Searched by the buyer's name (any case), found again; by something no document has, none.
    await page.getByLabel('Number or party').fill('no-such-document');
    await page.getByText('No documents match.').waitFor();
    await page.getByLabel('Number or party').fill('example BUYER');
    await row.waitFor();

    // Its page: the lifecycle as a timeline, the rendering inline, the PDF to download.
    await row.getByRole('link').click();
    await page.getByRole('heading', { name: `Invoice ${validFixtures[0]!.body.number as string}` }).waitFor();
    const timeline = page.getByRole('list').filter({ hasText: 'Accepted' });
    for (const step of [
      'Accepted',
      'Checked against the official rules',
      'Queued for sending',
      'Being sent',
      'Delivered',
    ])
      await timeline.getByText(step, { exact: true }).waitFor();
    await page
      .frameLocator('iframe.rendered')
      .getByText(validFixtures[0]!.body.number as string)
      .first()
      .waitFor({ timeout: 60_000 });
    const pdf = await page.request.get(
      new URL((await page.getByRole('link', { name: 'PDF' }).getAttribute('href')) ?? '', page.url()).toString(),
    );
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    await screenshot(page, 'document');
    expect(await seriousFindings(page)).toEqual([]);

    const again = await browser.newContext();
    const second = await again.newPage();
    await second.goto(link!);
    await second
      .getByRole('alert')
      .filter({ hasText: 'This sign-in link is unknown, was used already or has expired' })
      .waitFor();
    await again.close();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const afterwards = await page.request.get(`${sharedStack().apiUrl}/v1/account`);
    expect(afterwards.status()).toBe(401);
    expect(violations).toEqual([]);
  }, 120_000);

  it('when the language is German and the screen 375 px wide, then the documents read in German and nothing runs off the side', async () => {
    const sender = await sendingAccount();
    await callAs(sender.key, '/v1/documents', {
      method: 'POST',
      body: { ...validFixtures[0]!.body, company_id: sender.companyId },
    });
    // A value that is one long token, here a webhook's address, must break rather than widen its screen.
    const hooks = await receiver();
    await registerWebhook(sender.key, `${hooks.url}?token=${'0123456789abcdef'.repeat(6)}`, ['webhook.disabled']);
    const narrow = await browser.newContext({ viewport: { width: 375, height: 800 }, locale: 'de-DE' });
    const page = await narrow.newPage();
    await signIn(page, app, sender.email, {
      heading: 'Anmelden',
      field: 'E-Mail-Adresse',
      button: 'Anmeldelink senden',
    });
    await page.getByRole('heading', { name: 'Dokumente' }).waitFor();
    await page.getByText('Rechnung').first().waitFor();
    expect(await page.evaluate('document.documentElement.lang')).toBe('de');
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await screenshot(page, 'documents-de-375px');
    expect(await seriousFindings(page)).toEqual([]);
    // Every other screen too: in German, within 375 px, nothing serious for axe.
    for (const screen of [
      'send',
      'inbox',
      'companies',
      'going-live',
      'webhooks',
      'keys',
      'members',
      'usage',
      'audit',
    ]) {
      await page.goto(`${app}/${screen}`);
      await page.locator('h1').waitFor();
      await until(
        `/${screen} loaded`,
        () => page.evaluate<boolean>("document.body.innerText.includes('Wird geladen')"),
        (loading) => !loading,
        10_000,
        50,
      );
      const width = await page.evaluate<number>('document.documentElement.scrollWidth');
      if (width > 375) throw new Error(`/${screen} is ${width} px wide in a 375 px window`);
      expect({ screen, findings: await seriousFindings(page) }).toEqual({ screen, findings: [] });
    }
    await narrow.close();
  }, 120_000);

  it('when an invoice arrives, then it is in the inbox unread; accepted there, the answer shows on it and in its timeline, and it can be marked read and unread again', async () => {
    const account = await sendingAccount();
    const buyer = await callAs(account.key, '/v1/companies', { method: 'POST', body: belgianBuyerCompany });
    expect(buyer.status).toBe(201);
    const documentId = await receivedInSandbox(account, buyer.body.id);

    const page = await context.newPage();
    await signIn(page, app, account.email);
    await page.getByRole('link', { name: 'Inbox' }).click();
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    await page.getByLabel('Company').selectOption(buyer.body.id);
    const unread = page.locator('table').first();
    await unread.getByRole('link', { name: validFixtures[0]!.body.number as string }).click();
    await page.getByRole('heading', { name: 'Answer the seller' }).waitFor();
    expect(await seriousFindings(page)).toEqual([]);

    await page.getByRole('button', { name: 'Accept' }).click();
    await page.getByRole('status').filter({ hasText: 'Your answer is on its way to the seller.' }).waitFor();
    await page
      .getByRole('listitem')
      .filter({ hasText: 'Accepted' })
      .filter({ hasText: 'sent' })
      .waitFor({ timeout: 30_000 });
    await page.getByRole('list').filter({ hasText: 'Received' }).getByText('Answer sent', { exact: true }).waitFor();
    const given = await callAs(account.key, `/v1/documents/${documentId}/responses?company_id=${buyer.body.id}`);
    expect(given.body.data).toEqual([expect.objectContaining({ code: 'AP', direction: 'sent' })]);

    await page.getByRole('button', { name: 'Mark as read' }).click();
    await page.getByRole('button', { name: 'Mark as unread' }).waitFor();
    const read = await callAs(account.key, `/v1/documents/${documentId}?company_id=${buyer.body.id}`);
    expect(read.body.received.acknowledged_at).not.toBeNull();
    // Unread again: back in the pull queue.
    await page.getByRole('button', { name: 'Mark as unread' }).click();
    await page.getByRole('button', { name: 'Mark as read' }).waitFor();
    const queue = await callAs(account.key, `/v1/inbox?company_id=${buyer.body.id}&acknowledged=false`);
    expect(queue.body.data.map((document: { id: string }) => document.id)).toEqual([documentId]);
    await page
      .frameLocator('iframe.rendered')
      .getByText(validFixtures[0]!.body.number as string)
      .first()
      .waitFor({ timeout: 60_000 });
    await screenshot(page, 'received');
  }, 120_000);

  it('when an invoice is filled in the form, then each problem names its field and rule as it is typed, the totals follow, the buyer is looked up, and sent it is delivered with its timeline and PDF; a UBL file dropped opens its own page', async () => {
    const sender = await sendingAccount();
    const page = await context.newPage();
    const violations = cspViolations(page);
    await signIn(page, app, sender.email);
    await page.getByRole('link', { name: 'Send', exact: true }).click();
    await page.getByRole('heading', { name: 'Send', exact: true }).waitFor();

    const buyer = page.getByRole('group', { name: 'Buyer' });
    await page.getByLabel('Number', { exact: true }).fill('FORM-2026-1');
    await buyer.getByLabel('Name').fill('Example Buyer NV');
    await buyer.getByLabel('Peppol id').fill('0208:0987654394');
    await buyer.getByLabel('VAT number').fill('BE0987654394');
    await buyer.getByLabel('Email').fill('ap@buyer.example');
    await buyer.getByLabel('City').fill('Antwerpen');
    await buyer.getByLabel('Country (2 letters)').fill('BE');
    const line = page.getByRole('group', { name: 'Lines 1' });
    await line.getByLabel('Description').fill('Consulting hours');
    await line.getByLabel('Quantity').fill('12.5');
    await line.getByLabel('Unit price').fill('100.00');

    // No buyer reference nor order reference: the API's rule, on its field, in words.
    const reference = page.getByLabel('Buyer reference');
    await page
      .getByRole('alert')
      .filter({ hasText: 'Buyer reference:' })
      .filter({ hasText: '(PEPPOL-EN16931-R003)' })
      .waitFor();
    await expect(reference.getAttribute('aria-invalid')).resolves.toBe('true');
    await page.getByLabel('Totals').getByText('€1,512.50').waitFor();
    await buyer.getByRole('button', { name: 'Look up on Peppol' }).click();
    await buyer.getByRole('status').filter({ hasText: 'Receives invoices and credit notes on Peppol.' }).waitFor();
    expect(await seriousFindings(page)).toEqual([]);
    await screenshot(page, 'send');

    await reference.fill('DEPT-77');
    await page.getByText('Ready to send: the Peppol rules find nothing wrong.').waitFor();
    expect(await reference.getAttribute('aria-invalid')).toBeNull();
    await line.getByLabel('Quantity').fill('10');
    await page.getByLabel('Totals').getByText('€1,210.00').waitFor();
    await page.getByRole('button', { name: 'Send the document' }).click();

    await page.getByRole('heading', { name: 'Invoice FORM-2026-1' }).waitFor();
    const timeline = page.getByRole('list').filter({ hasText: 'Accepted' });
    await timeline.getByText('Delivered', { exact: true }).waitFor({ timeout: 60_000 });
    const id = /\/documents\/([^?]+)/.exec(page.url())![1]!;
    const sent = await callAs(sender.key, `/v1/documents/${id}?company_id=${sender.companyId}`);
    expect(sent.body).toMatchObject({
      number: 'FORM-2026-1',
      status: 'delivered',
      totals: expect.objectContaining({ payable: '1210.00' }),
    });
    const pdf = await page.request.get(
      new URL((await page.getByRole('link', { name: 'PDF' }).getAttribute('href')) ?? '', page.url()).toString(),
    );
    expect(pdf.headers()['content-type']).toBe('application/pdf');

    await page.getByRole('link', { name: 'Send', exact: true }).click();
    // A UUID, which the official rules warn of (UBL-CR-…): its page lists the warning under the official check.
    const ubl = clientMadeUbl('peppol-bis/base-example.xml', belgianSeller.peppol_id!, 'ap@buyer.example').replace(
      '<cbc:ID>Snippet1</cbc:ID>',
      '<cbc:ID>Snippet1</cbc:ID><cbc:UUID>6f1c2b4e-1d2a-4c3b-9e8f-0a1b2c3d4e5f</cbc:UUID>',
    );
    await page
      .locator('#ubl-file')
      .setInputFiles({ name: 'invoice.xml', mimeType: 'application/xml', buffer: Buffer.from(ubl) });
    await page.waitForURL(/\/documents\/(?!\w+$)[^/]+\?company=/);
    await page.getByRole('heading', { level: 1 }).filter({ hasText: 'Invoice' }).waitFor();
    await page.getByText('The official rules warned of (it was sent all the same):').waitFor({ timeout: 60_000 });
    await expect(page.locator('.findings code').first().textContent()).resolves.toMatch(/^UBL-CR-\d+$/);
    expect(page.url()).not.toContain(id);
    expect(violations).toEqual([]);
  }, 180_000);

  it('when a webhook\u2019s first attempt fails and the second succeeds, then its delivery shows both attempts; delivered again, a third under the same id; the dead-letter list is empty', async () => {
    const account = await sendingAccount();
    const hooks = (await receiver()).answer({ status: 500 });
    const page = await context.newPage();
    await signIn(page, app, account.email);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await page.getByLabel('Address (URL)').fill(hooks.url);
    await page.getByLabel('Description').fill('Billing system');
    await page.getByRole('button', { name: 'Add the webhook' }).click();
    const secret = await page.getByRole('status').filter({ hasText: 'Copy it now' }).locator('code').textContent();
    expect(secret).toMatch(/^whsec_/);
    expect(await seriousFindings(page)).toEqual([]);
    await screenshot(page, 'webhooks');

    await page.getByRole('link', { name: 'Billing system' }).click();
    await page.getByRole('heading', { name: 'Billing system' }).waitFor();
    await page.getByRole('button', { name: 'Send a test event' }).click();
    const delivery = page.getByRole('region', { name: /^webhook\.test / });
    const attempts = delivery.locator('tbody tr');
    await attempts.nth(1).waitFor({ timeout: 30_000 });
    await expect(attempts.nth(0).textContent()).resolves.toMatch(/Failed.*500.*not now/);
    await expect(attempts.nth(1).textContent()).resolves.toMatch(/Delivered.*200.*ok/);
    expect(await seriousFindings(page)).toEqual([]);
    await screenshot(page, 'webhook');

    const deliveryId = (await delivery.locator('p code').textContent())!;
    await delivery.getByRole('button', { name: `Deliver again ${deliveryId}` }).click();
    await attempts.nth(2).waitFor({ timeout: 30_000 });
    await expect(attempts.nth(2).textContent()).resolves.toMatch(/Delivered.*200/);
    expect(hooks.received.map((request) => request.headers['x-peppol-delivery-id'])).toEqual([
      deliveryId,
      deliveryId,
      deliveryId,
    ]);
    await page.getByLabel('Show').selectOption('failed');
    await page.getByText('No deliveries.').waitFor();
  }, 120_000);

  it('when the owner adds a company, goes live with the documents and the attestation, adds and removes a member, then each screen shows it: the review pending and then approved, the credits, and the audit log of it all', async () => {
    const owner = await signUp('app-owner');
    const colleague = await signUp('app-colleague');
    const page = await context.newPage();
    await signIn(page, app, owner.email);

    await page.getByRole('link', { name: 'Companies' }).click();
    const adding = page.getByRole('group', { name: 'Add a company' });
    await adding.getByLabel('Legal name').fill('Acme BV');
    await adding.getByLabel('VAT number').fill('BE0123456749');
    await adding.getByLabel('Registration number').fill('0123456749');
    await adding.getByLabel('Peppol id').fill('0208:0123456749');
    await adding.getByLabel('City').fill('Brussel');
    await adding.getByRole('button', { name: 'Add a company' }).click();
    const company = page.getByRole('region', { name: 'Acme BV' });
    await company.getByText('0208:0123456749', { exact: true }).waitFor();
    await company.getByText('Sandbox only').waitFor();
    expect(await seriousFindings(page)).toEqual([]);
    await screenshot(page, 'companies');

    const environments = page.getByRole('navigation', { name: 'Environment' });
    await environments.getByText('Live: once the workspace is verified').waitFor();
    await page.getByRole('link', { name: 'Going live' }).click();
    await page.getByText('Not submitted yet').waitFor();
    for (const type of [
      'Extract from the company register',
      'Identity document of the representative',
      'Proof of the authority to represent the company',
    ]) {
      await page.getByLabel('Kind of document').selectOption({ label: type });
      await page
        .getByLabel('File (PDF, PNG or JPEG)')
        .setInputFiles({ name: 'proof.pdf', mimeType: 'application/pdf', buffer: files.pdf });
      await page.getByRole('button', { name: 'Upload' }).click();
      await page
        .getByRole('definition')
        .filter({ hasText: `${type} (proof.pdf)` })
        .waitFor();
    }
    const attestation = page.getByRole('group', { name: 'Attestation' });
    await attestation.getByLabel('The company\u2019s legal name').fill('Acme BV');
    await attestation.getByLabel('Its enterprise number').fill('0123.456.749');
    await attestation.getByLabel('Your name').fill('Ann Owner');
    await attestation.getByLabel('Your role in the company').fill('Managing director');
    await attestation.getByLabel('I attest the above, as written here.').check();
    expect(await seriousFindings(page)).toEqual([]);
    await screenshot(page, 'going-live');
    await attestation.getByRole('button', { name: 'Submit for review' }).click();
    await page.getByText('Submitted: we are reviewing it').waitFor();
    await waitForKyc(owner.key, (state) => state.status === 'pending');
    expect((await ops('kyc', 'approve', owner.workspaceId)).code).toBe(0);
    await page.getByText('Approved: the workspace is live').waitFor({ timeout: 30_000 });
    await expect(environments.getByRole('link', { name: 'Live' }).getAttribute('href')).resolves.toMatch(
      /^http:\/\/live\.localhost:\d+\/app$/,
    );
    expect(await environments.getByRole('link', { name: 'Sandbox' }).getAttribute('aria-current')).toBe('page');

    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByLabel('Email').fill(colleague.email);
    await page.getByLabel('Role').selectOption('admin');
    await page.getByRole('button', { name: 'Add the member' }).click();
    const row = page.getByRole('row').filter({ hasText: colleague.email });
    await expect(row.textContent()).resolves.toBeDefined();
    await row.getByText('Administrator').waitFor();
    expect(await seriousFindings(page)).toEqual([]);
    await screenshot(page, 'members');
    await row.getByRole('button', { name: `Remove ${colleague.email}` }).click();
    await row.waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'Credits and usage' }).click();
    await page.getByText('Credit balance').waitFor();
    await page.getByRole('row').filter({ hasText: 'Last 30 days' }).waitFor();
    expect(await seriousFindings(page)).toEqual([]);
    await screenshot(page, 'usage');

    await page.getByRole('link', { name: 'Audit log' }).click();
    for (const action of ['company.created', 'kyc.submitted', 'member.added', 'member.removed'])
      await page.getByRole('cell', { name: action, exact: true }).first().waitFor();
    expect(await seriousFindings(page)).toEqual([]);
    await screenshot(page, 'audit');
  }, 180_000);

  it('when a key is created, then it is shown once and works; revoked, it is gone from the list and refused', async () => {
    const account = await sendingAccount();
    const page = await context.newPage();
    await signIn(page, app, account.email);
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByLabel('Name of the key').fill('Billing export');
    await page.getByRole('button', { name: 'Create a key' }).click();
    const shown = await page.getByRole('status').filter({ hasText: 'Copy it now' }).locator('code').textContent();
    expect(shown).toMatch(/^ps_test_[0-9A-Za-z]{43}$/);
    expect((await callAs(shown!, '/v1/account')).status).toBe(200);
    const row = page.getByRole('row').filter({ hasText: 'Billing export' });
    const prefix = (await row.locator('code').textContent())!;
    expect(shown!.startsWith(prefix.replace('...', ''))).toBe(true);
    await screenshot(page, 'keys');
    expect(await seriousFindings(page)).toEqual([]);

    await row.getByRole('button', { name: `Revoke ${prefix}` }).click();
    await row.waitFor({ state: 'detached' });
    const refused = await callAs(shown!, '/v1/account');
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('invalid_api_key');
  }, 120_000);

  it('when a signed-in person opens the address of another workspace’s document, then it is refused and nothing of it shows', async () => {
    const [mine, theirs] = await Promise.all([sendingAccount(), sendingAccount()]);
    const posted = await callAs(theirs.key, '/v1/documents', {
      method: 'POST',
      body: { ...validFixtures[0]!.body, number: 'THEIRS-1', company_id: theirs.companyId },
    });
    expect(posted.status).toBe(202);
    const page = await context.newPage();
    await signIn(page, app, mine.email);
    await page.getByRole('heading', { name: 'Documents' }).waitFor();
    await page.goto(`${app}/documents/${posted.body.id}?company=${theirs.companyId}`);
    await page.getByRole('alert').filter({ hasText: 'is not a member of the workspace' }).waitFor();
    expect(await page.getByText('THEIRS-1').count()).toBe(0);
  }, 120_000);
});
