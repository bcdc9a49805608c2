import { randomUUID } from 'node:crypto';

import { answersWithMls, mlsAddressee, mlsAskedIn, mlsCountryC1, mlsVerdict } from '../../domain/peppol/mls';
import { INVOICE_RESPONSE, MESSAGE_LEVEL_STATUS } from '../../domain/peppol/capabilities';
import { replyRouting, routingOf, standardBusinessDocument } from '../../domain/peppol/envelope';
import { writeInvoiceResponse } from '../../domain/ubl/application-response';
import { ublTo } from '../support/receiving';

const invoice = ublTo('standard rate S, one line', '0208:0987654394');
const envelope = (mls?: Parameters<typeof standardBusinessDocument>[2]['mls']) =>
  Buffer.from(
    standardBusinessDocument(invoice, routingOf(invoice), {
      instanceId: 'f2b1c7c4-0000-4000-8000-000000000001',
      createdAt: new Date(),
      ...(mls && { mls }),
    }),
  );

describe('what a received SBDH asks of our Message Level Status', () => {
  it('reads MLS_TYPE and a valid MLS_TO; without them FAILURE_ONLY to the sending access point', () => {
    expect(mlsAskedIn(envelope({ type: 'ALWAYS_SEND', to: '0242:000123' }))).toEqual({
      instanceId: 'f2b1c7c4-0000-4000-8000-000000000001',
      type: 'ALWAYS_SEND',
      to: '000123',
    });
    const plain = mlsAskedIn(envelope())!;
    expect(plain).toEqual({ instanceId: 'f2b1c7c4-0000-4000-8000-000000000001', type: 'FAILURE_ONLY', to: null });
    expect(mlsAddressee(plain, 'PBE000002')).toBe('000002');
    // An invalid MLS_TO goes to C2's SPID, as the specification says.
    expect(mlsAskedIn(envelope({ type: 'FAILURE_ONLY', to: '0088:12' }))!.to).toBeNull();
    expect(mlsAskedIn(Buffer.from('<Invoice/>'))).toBeUndefined();
  });

  it('answers AB only when asked always, RE with a BV or SV line per fatal finding, and never an MLS', () => {
    expect(mlsVerdict({ type: 'FAILURE_ONLY' }, { valid: true, errors: [] })).toBeUndefined();
    expect(mlsVerdict({ type: 'ALWAYS_SEND' }, { valid: true, errors: [] })).toEqual({
      code: 'AB',
      description: null,
      lines: [],
    });
    expect(
      mlsVerdict(
        { type: 'FAILURE_ONLY' },
        {
          valid: false,
          errors: [
            { rule: 'BR-CO-16', location: '/Invoice[1]', message: 'Amount due for payment' },
            { rule: 'not_ubl', location: '', message: 'no UBL' },
          ],
        },
      ),
    ).toEqual({
      code: 'RE',
      description: 'Rejected due to validation errors',
      lines: [
        { reason: 'BV', description: '[BR-CO-16] Amount due for payment', lineId: '/Invoice[1]' },
        { reason: 'SV', description: '[not_ubl] no UBL', lineId: 'NA' },
      ],
    });
    expect(answersWithMls(`busdox-docid-qns::${MESSAGE_LEVEL_STATUS.documentType.value}`)).toBe(false);
    expect(answersWithMls(`busdox-docid-qns::${INVOICE_RESPONSE.documentType.value}`)).toBe(true);
  });
});

describe("our MLS's COUNTRY_C1", () => {
  it("is the receiving company's country, with no default: a company without one, or not stored, is an error naming it", () => {
    expect(mlsCountryC1('com_1', { country: 'NL' })).toBe('NL');
    expect(() => mlsCountryC1('com_1', { country: null })).toThrow(
      "No Message Level Status can be addressed for company com_1: it has no country, and the status's envelope names the company's country (COUNTRY_C1)",
    );
    expect(() => mlsCountryC1('com_2', null)).toThrow(/company com_2: it is not stored/);
  });
});

describe('routing a reply', () => {
  it('addresses an Invoice Response from its parties, under the Invoice Response process', () => {
    const ubl = writeInvoiceResponse({
      id: randomUUID(),
      issueDate: '2026-11-25',
      sender: { participantId: '0208:0987654394', name: 'Buyer' },
      receiver: { participantId: '0208:0123456749', name: 'Seller' },
      content: { code: 'AP', reasons: [], actions: [], note: null },
      reference: { id: 'INV-1', issueDate: null, typeCode: '380' },
    });
    const routing = replyRouting(ubl, INVOICE_RESPONSE, 'BE');
    expect(routing).toMatchObject({
      sender: '0208:0987654394',
      receiver: '0208:0123456749',
      documentType: INVOICE_RESPONSE.documentType,
      process: INVOICE_RESPONSE.process,
      root: { name: 'ApplicationResponse' },
    });
    const sbd = standardBusinessDocument(ubl, routing, { instanceId: 'x', createdAt: new Date() });
    expect(sbd).toContain('<InstanceIdentifier>urn:fdc:peppol.eu:poacc:bis:invoice_response:3</InstanceIdentifier>');
    expect(sbd).not.toContain('MLS_TYPE');
    expect(() => replyRouting(invoice, INVOICE_RESPONSE, 'BE')).toThrow(/not a UBL ApplicationResponse/);
  });
});
