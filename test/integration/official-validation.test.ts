import { convertDocument } from '../../domain/documents/convert';
import { documentInputSchema } from '../../domain/documents/input';
import { isPeppolActiveCountry } from '../../domain/countries';
import { validFixtures, type Fixture } from '../fixtures/documents';
import { callAs, fakeClientIp, signUp } from '../support/accounts';
import { inboxFor, sendingAccount, waitForStatus } from '../support/documents';
import { callApi } from '../support/http';
import { sharedStack } from '../support/test-stack';

/**
 * The official Peppol rules in production: the health check names the rule
 * set, the public validator answers with the official findings, and every
 * document passes them in its send workflow before it leaves.
 */

const RULE_SET = /^eu\.peppol\.bis3:\d{4}\.\d+$/;

function convertedUbl(fixture: Fixture): string {
  const converted = convertDocument(documentInputSchema.parse(fixture.body), fixture.company);
  if (!converted.ok) throw new Error(`${fixture.name} is refused: ${JSON.stringify(converted.violations)}`);
  return converted.ubl;
}

/** One client address per call, so the per-IP limit is this test's own (the API trusts the loopback proxy). */
const validate = (body: string | Buffer, contentType = 'application/xml', ip = fakeClientIp()) =>
  callApi('/v1/ubl/validate', {
    method: 'POST',
    headers: { 'Content-Type': contentType, 'X-Forwarded-For': ip },
    body,
  });

describe('the official rule set', () => {
  it('when health is asked, then it names the rule set in force and the validator check is ok', async () => {
    const response = await callApi('/v1/health');
    expect(response.status).toBe(200);
    expect(response.body.checks.validator).toBe('ok');
    expect(response.body.rule_set.id).toMatch(RULE_SET);
    expect(response.body.rule_set.name).toMatch(/^Peppol BIS Billing 3\.0\.\d+$/);
  });
});

describe('POST /v1/ubl/validate (public)', () => {
  const ubl = convertedUbl(validFixtures[0]!);

  it('when the UBL is valid, then 200 valid with no errors and the rule set', async () => {
    const response = await validate(ubl);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ valid: true, document_type: 'invoice', errors: [] });
    expect(response.body.rule_set).toMatch(RULE_SET);
  });

  it('when the payable amount does not follow from the totals, then 200 invalid naming BR-CO-16 with its location and message', async () => {
    const changed = ubl.replace(/(<cbc:PayableAmount currencyID="EUR">)[^<]+/, '$1999.99');
    expect(changed).not.toBe(ubl);
    const response = await validate(changed, 'text/xml');
    expect(response.status).toBe(200);
    expect(response.body.valid).toBe(false);
    const finding = response.body.errors.find((error: { rule: string }) => error.rule === 'BR-CO-16');
    expect(finding).toMatchObject({
      severity: 'fatal',
      location: expect.stringContaining('LegalMonetaryTotal'),
      message: expect.any(String),
    });
  });

  it('when the UBL breaks the schema, then the finding is located by line and column, never by a file of the server', async () => {
    const response = await validate(ubl.replace('<cbc:IssueDate>', '<cbc:Unknown>x</cbc:Unknown><cbc:IssueDate>'));
    expect(response.status).toBe(200);
    const schema = response.body.errors.find((error: { rule: string }) => error.rule === 'UBL-XSD');
    expect(schema.location).toMatch(/^line \d+, column \d+$/);
  });

  it('when the body is not well-formed XML, or empty, then 400 invalid_xml', async () => {
    const broken = await validate('<Invoice><unclosed></Invoice>');
    expect(broken.status).toBe(400);
    expect(broken.body.error).toMatchObject({ type: 'validation_error', code: 'invalid_xml' });
    expect(broken.body.error.message).toContain('line 1');
    expect((await validate('')).body.error.code).toBe('invalid_xml');
  });

  it('when the XML is not a UBL Invoice or CreditNote, then 422 not_ubl_document', async () => {
    const response = await validate('<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"/>');
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('not_ubl_document');
    expect(response.body.error.message).toContain('Order');
  });

  it('when the body is sent as JSON, then 415 unsupported_media_type naming application/xml', async () => {
    const response = await validate(JSON.stringify({ xml: ubl }), 'application/json');
    expect(response.status).toBe(415);
    expect(response.body.error.message).toContain('application/xml');
  });

  it('when the body is over the limit, then 413 body_too_large without validating', async () => {
    const response = await validate(`${ubl}<!--${'x'.repeat(sharedStack().maxBodyBytes)}-->`);
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('body_too_large');
  });

  it('when one address validates more than the hourly limit, then 429 with Retry-After; another address still gets through', async () => {
    const ip = fakeClientIp();
    const statuses: number[] = [];
    for (let i = 0; i <= sharedStack().ublValidationsPerIp; i += 1)
      statuses.push((await validate(ubl, 'application/xml', ip)).status);
    expect(statuses.slice(0, -1).every((status) => status === 200)).toBe(true);
    const limited = await validate(ubl, 'application/xml', ip);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await validate(ubl)).status).toBe(200);
  });
});

describe('the validating step of the send workflow', () => {
  it('when the official rules refuse a document the pre-send checks let through, then it fails with every fatal rule id and is never sent', async () => {
    const sender = await sendingAccount();
    const recipient = `refused-${Date.now()}@buyer.example`;
    const base = validFixtures[0]!.body as { to: Record<string, unknown> };
    // A unit code of the right shape that UN/ECE Rec 20 does not have: only the official code list knows.
    const body = {
      ...base,
      company_id: sender.companyId,
      number: 'INV-OFFICIAL-REFUSAL',
      to: { ...base.to, email: recipient },
      lines: [{ description: 'Consulting', quantity: 1, unit: 'QQQ', unit_price: '100.00', tax_rate: 21 }],
    };
    const accepted = await callAs(sender.key, '/v1/documents', { method: 'POST', body });
    expect(accepted.status).toBe(202);

    const failed = await waitForStatus(sender.key, accepted.body.id, sender.companyId, ['failed', 'delivered']);
    expect(failed.status).toBe('failed');
    expect(failed.error_message).toContain('[BR-CL-23]');
    expect(failed.rule_set).toMatch(RULE_SET);
    const history = await callAs(sender.key, `/v1/documents/${accepted.body.id}/history`);
    const failure = history.body.find((entry: { step: string }) => entry.step === 'failed');
    expect(failure.error_message).toContain('[BR-CL-23]');
    expect(history.body.map((entry: { step: string }) => entry.step)).not.toContain('sending');
    expect(await inboxFor(recipient)).toEqual([]);
  });

  // Sellers of countries without active Peppol use (the Spanish L and M fixtures) cannot be companies here;
  // the conformance tests run those through the same validator service.
  const sendable = validFixtures.filter((fixture) => isPeppolActiveCountry(fixture.company.country));

  it('when every fixture of a sending country (all VAT categories, credit notes, national rule sets, attachments) is posted, then each is delivered with the rule set recorded', async () => {
    expect(sendable.length).toBeGreaterThanOrEqual(validFixtures.length - 2);
    const account = await signUp('fixtures');
    const companies = new Map<Fixture['company'], string>();
    for (const fixture of sendable) {
      if (companies.has(fixture.company)) continue;
      const created = await callAs(account.key, '/v1/companies', { method: 'POST', body: fixture.company });
      if (created.status !== 201) throw new Error(`company for ${fixture.name}: ${created.text}`);
      companies.set(fixture.company, created.body.id);
    }
    const sent = await Promise.all(
      sendable.map(async (fixture) => {
        const companyId = companies.get(fixture.company)!;
        // The fixture's own number: some national rules give it a structure (Greece).
        const body = { ...fixture.body, company_id: companyId };
        const response = await callAs(account.key, '/v1/documents', { method: 'POST', body });
        if (response.status !== 202) throw new Error(`${fixture.name}: ${response.text}`);
        return { fixture, companyId, id: response.body.id as string };
      }),
    );
    for (const { fixture, companyId, id } of sent) {
      const final = await waitForStatus(account.key, id, companyId, ['delivered', 'failed'], 60_000);
      expect({ fixture: fixture.name, status: final.status, error: final.error_message }).toEqual({
        fixture: fixture.name,
        status: 'delivered',
        error: null,
      });
      expect(final.rule_set).toMatch(RULE_SET);
    }
  }, 120_000);
});
