import { readFileSync } from 'node:fs';
import path from 'node:path';

import { officialValidator } from '../../platform/official-validator';
import { fakeClientIp } from '../support/accounts';
import { callApi } from '../support/http';
import { officialExamples } from '../support/official-examples';
import { sharedStack } from '../support/test-stack';

/**
 * The validator picks the official rule set by the document: Invoice Response (T111) and Message Level
 * Status by the ApplicationResponse's CustomizationID, the reports (TSR, EUSR) by their root. Each kind has a
 * valid example and one that breaks a rule, written for this project from the specifications
 * (test/fixtures/official-kinds/).
 */

const fixture = (name: string) => readFileSync(path.join(__dirname, '..', 'fixtures', 'official-kinds', name));

const KINDS = [
  {
    kind: 'invoice_response',
    ruleSet: /^eu\.peppol\.bis3:invoice-message-response:\d{4}\.\d+$/,
    valid: 'invoice-response-rejected.xml',
    invalid: 'invoice-response-unknown-reason.xml',
    rule: 'PEPPOL-T111-R007',
  },
  {
    kind: 'mls',
    ruleSet: /^org\.peppol:mls:1/,
    valid: 'mls-rejected.xml',
    invalid: 'mls-rejected-without-reason.xml',
    rule: 'SCH-MLS-23',
  },
  {
    kind: 'tsr',
    ruleSet: /^eu\.peppol\.reporting:tsr:1\.0\.\d+$/,
    valid: 'tsr.xml',
    invalid: 'tsr-wrong-total.xml',
    rule: 'SCH-TSR-05',
  },
  {
    kind: 'eusr',
    ruleSet: /^eu\.peppol\.reporting:eusr:1\.1\.\d+$/,
    valid: 'eusr.xml',
    invalid: 'eusr-too-few-end-users.xml',
    rule: 'SCH-EUSR-20',
  },
] as const;

describe('the official validator, for each document kind', () => {
  const validator = () => officialValidator(sharedStack().validatorUrl);

  it.each(KINDS)(
    'when a valid $kind is validated, then its own rule set finds nothing fatal',
    async ({ kind, ruleSet, valid }) => {
      const report = await validator().validate(fixture(valid));
      expect(report).toMatchObject({ document_type: kind, problem: null, valid: true });
      expect(report.rule_set).toMatch(ruleSet);
      expect(report.findings.filter((finding) => finding.severity === 'fatal')).toEqual([]);
    },
  );

  it.each(KINDS)(
    'when a $kind breaks $rule, then it is invalid naming that rule',
    async ({ kind, ruleSet, invalid, rule }) => {
      const report = await validator().validate(fixture(invalid));
      expect(report).toMatchObject({ document_type: kind, problem: null, valid: false });
      expect(report.rule_set).toMatch(ruleSet);
      expect(report.findings).toContainEqual(expect.objectContaining({ rule, severity: 'fatal' }));
    },
  );

  it('when an ApplicationResponse is neither an Invoice Response nor an MLS, then no rule set fits (not_ubl)', async () => {
    const other = fixture('mls-rejected.xml')
      .toString('utf8')
      .replace('urn:peppol:edec:mls:1.0', 'urn:example:order-response');
    const report = await validator().validate(other);
    expect(report).toMatchObject({ document_type: null, valid: false, problem: { code: 'not_ubl' } });
    expect(report.problem?.message).toMatch(/neither an Invoice Response .* nor a Message Level Status/);
  });
});

describe('POST /v1/ubl/validate with the new kinds', () => {
  const validate = (body: Buffer) =>
    callApi('/v1/ubl/validate', {
      method: 'POST',
      headers: { 'Content-Type': 'application/xml', 'X-Forwarded-For': fakeClientIp() },
      body,
    });

  it('when an Invoice Response or MLS is posted, then it is judged by its own rules', async () => {
    const response = await validate(fixture('invoice-response-unknown-reason.xml'));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ valid: false, document_type: 'invoice_response' });
    expect(response.body.errors).toContainEqual(expect.objectContaining({ rule: 'PEPPOL-T111-R007' }));
    const mls = await validate(fixture('mls-rejected.xml'));
    expect(mls.body).toMatchObject({ valid: true, document_type: 'mls', errors: [] });
  });

  it('when a CII invoice is posted, then CEN’s EN 16931 CII rules judge it, naming their rules', async () => {
    const example = officialExamples('en16931-cii').find(({ name }) => name === 'en16931-cii/CII_example1.xml')!.xml;
    expect((await validate(Buffer.from(example))).body).toMatchObject({
      valid: true,
      document_type: 'cii',
      rule_set: expect.stringMatching(/^eu\.cen\.en16931:cii:/),
      errors: [],
    });
    const wrongTotal = await validate(
      Buffer.from(example.replace(/<ram:DuePayableAmount>[^<]*</, '<ram:DuePayableAmount>1.00<')),
    );
    expect(wrongTotal.body).toMatchObject({ valid: false, document_type: 'cii' });
    expect(wrongTotal.body.errors).toContainEqual(expect.objectContaining({ rule: 'BR-CO-16' }));
  });

  it('when a Peppol report is posted, then it is no UBL: 422 not_ubl_document', async () => {
    const response = await validate(fixture('tsr.xml'));
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('not_ubl_document');
  });
});
