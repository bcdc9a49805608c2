import { readFileSync } from 'node:fs';
import path from 'node:path';

import { followUpRefusal, type ResponseCode } from '../../domain/peppol/invoice-response';
import {
  readApplicationResponse,
  type ReadInvoiceResponse,
  type ReadMessageLevelStatus,
} from '../../domain/ubl/application-response';

/**
 * Invoice Responses and Message Level Statuses nobody here wrote, read by our
 * readers: OpenPeppol's T111 examples (poacc-upgrade-3) and the MLS 1.1.0
 * examples (byte-identical to those of OpenPeppol's mls-resources; see
 * test/fixtures/third-party/SOURCES.md). The received ones are what a buyer's
 * and an access point's software send us.
 */

const dir = path.join(__dirname, '..', 'fixtures', 'third-party', 'replies');
const read = (file: string) => readApplicationResponse(readFileSync(path.join(dir, file), 'utf8'));
const invoiceResponse = (file: string) => read(`invoice-response/${file}`) as ReadInvoiceResponse;
const mls = (file: string) => read(`mls/${file}`) as ReadMessageLevelStatus;

describe("OpenPeppol's Invoice Response examples, read", () => {
  it.each<[string, ResponseCode, { code: string; text?: string | null }[], { code: string }[]]>([
    ['InvoiceResponse_Example.xml', 'RE', [], [{ code: 'NOA' }]],
    ['T111-uc001-Invoice_in_process.xml', 'IP', [], []],
    ['T111-uc003-Invoice_is_accepted.xml', 'AP', [], []],
    ['T111-uc004a-Invoice_is_rejected.xml', 'RE', [{ code: 'REF' }], []],
    ['T111-uc006b-Missing_PO.xml', 'UQ', [{ code: 'REF' }], [{ code: 'PIN' }]],
  ])('%s: code %s with its reasons and actions, about invoice inv021', (file, code, reasons, actions) => {
    const response = invoiceResponse(file);
    expect(response).toMatchObject({ kind: 'invoice_response', id: 'imrid001', code, reference: { id: 'inv021' } });
    expect(response.reasons.map(({ code: reason }) => ({ code: reason }))).toEqual(
      reasons.map(({ code: reason }) => ({ code: reason })),
    );
    expect(response.actions.map(({ code: action }) => ({ code: action }))).toEqual(actions);
    expect(response.sender?.participantId).toMatch(/^\d{4}:/);
    expect(response.receiver?.participantId).toMatch(/^\d{4}:/);
  });

  it('the process rules read them as the process does: after RE nothing more, after AP only PD, after IP or UQ the next', () => {
    expect(followUpRefusal([invoiceResponse('T111-uc004a-Invoice_is_rejected.xml').code], 'AP')).toMatchObject({
      rule: 'OP-BR111-R004',
    });
    expect(followUpRefusal([invoiceResponse('T111-uc003-Invoice_is_accepted.xml').code], 'RE')).toMatchObject({
      rule: 'OP-BR111-R005',
    });
    expect(followUpRefusal([invoiceResponse('T111-uc003-Invoice_is_accepted.xml').code], 'PD')).toBeUndefined();
    expect(followUpRefusal([invoiceResponse('T111-uc001-Invoice_in_process.xml').code], 'AP')).toBeUndefined();
    expect(followUpRefusal([invoiceResponse('T111-uc006b-Missing_PO.xml').code], 'AP')).toBeUndefined();
  });
});

describe('the Message Level Status 1.1.0 examples, read', () => {
  it.each([
    ['MessageLevelStatus_Example_AB.xml', 'AB', 0],
    ['MessageLevelStatus_Example_AB2.xml', 'AB', 0],
    ['MessageLevelStatus_Example_AP.xml', 'AP', 0],
    ['MessageLevelStatus_Example_RE.xml', 'RE', 1],
    ['MessageLevelStatus_Example_RE2.xml', 'RE', 2],
    // Every value padded with blanks: read as the values they are.
    ['MessageLevelStatus_Example_RE3.xml', 'RE', 2],
    ['MessageLevelStatus_Example_RE4.xml', 'RE', 2],
  ])('%s: %s with %i line statuses, between service providers 123456 and 234567', (file, code, lines) => {
    const status = mls(file);
    expect(status).toMatchObject({ kind: 'mls', code, senderSpid: '123456', receiverSpid: '234567' });
    expect(status.referencedInstanceId).not.toBe('');
    expect(status.lines).toHaveLength(lines);
    for (const line of status.lines) expect(['BV', 'BW', 'FD', 'SV']).toContain(line.reason);
  });

  it('service provider ids with a suffix (MLS 1.1.0: 123456-MLS.ANYTHING) are read whole', () => {
    expect(mls('MessageLevelStatus_Example_AB3.xml')).toMatchObject({
      kind: 'mls',
      code: 'AB',
      senderSpid: '123456-MLS.ANYTHING',
      receiverSpid: '234567-mls.P12345.99',
    });
  });
});
