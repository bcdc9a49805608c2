import { readPostedUbl } from '../../api/public/ubl-document-input';
import { formatStatedAmount } from '../../domain/documents/calculate';
import { clientMadeUbl, officialExamples } from '../support/official-examples';

const company = { _id: 'com_0mhx3k2a1bQ8sV7yT2nR4kLp', peppol_id: '0208:0123456749' };
const invoice = clientMadeUbl('peppol-bis/base-example.xml', company.peppol_id, 'buyer@example.com');
const read = (xml: string | Buffer, idempotencyKey?: string) =>
  readPostedUbl({ xml: Buffer.from(xml), company, ...(idempotencyKey && { idempotencyKey }) });

describe('a UBL document the client made, read for sending', () => {
  it('when its seller is the company, then it is accepted as sent: its text, the JSON view and the totals it states', () => {
    const reading = read(invoice, 'order-7');
    if (!reading.ok) throw new Error(`refused: ${JSON.stringify(reading)}`);
    const { prepared } = reading;
    expect(prepared.ubl).toBe(invoice);
    expect(prepared.document).toMatchObject({
      company_id: company._id,
      type: 'invoice',
      number: 'Snippet1',
      idempotency_key: 'order-7',
      to: { email: 'buyer@example.com' },
    });
    expect(prepared.document.from.peppol_id).toBe(company.peppol_id);
    // The amounts the UBL states (`1300`, `1325`, `25`), with two decimals as every amount the API shows; the ones it leaves out zero.
    expect(prepared.totals).toEqual({
      line_extension: '1300.00',
      allowance_total: '0.00',
      charge_total: '25.00',
      tax_exclusive: '1325.00',
      tax: '331.25',
      tax_inclusive: '1656.25',
      prepaid: '0.00',
      payable_rounding: '0.00',
      payable: '1656.25',
    });
  });

  it('when it states an amount with more than two decimals, then that amount is shown as stated, never rounded', () => {
    expect(['1300', '-25', '0', '1300.5', '12.345'].map(formatStatedAmount)).toEqual([
      '1300.00',
      '-25.00',
      '0.00',
      '1300.50',
      '12.345',
    ]);
  });

  it('when it starts with a byte order mark, then the mark is kept: the stored text is the bytes sent', () => {
    const reading = read(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(invoice)]));
    expect(reading.ok && Buffer.from(reading.prepared.ubl)).toEqual(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(invoice)]),
    );
  });

  it("when the seller's EndpointID is another participant's, or the company has no Peppol id, then it is refused naming the seller", () => {
    const official = officialExamples('peppol-bis').find(
      (example) => example.name === 'peppol-bis/base-example.xml',
    )!.xml;
    expect(read(official)).toEqual({ ok: false, seller: '0088:9482348239847239874', syntax: 'ubl' });
    expect(readPostedUbl({ xml: Buffer.from(invoice), company: { ...company, peppol_id: null } })).toEqual({
      ok: false,
      seller: company.peppol_id,
      syntax: 'ubl',
    });
  });

  it('when it is not UTF-8, or not an Invoice or CreditNote, then it is refused saying so', () => {
    expect(read(Buffer.from(invoice.replace('Snippet1', 'Snippet\u00e9'), 'latin1'))).toEqual({
      ok: false,
      notUtf8: true,
    });
    expect(read('<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"/>')).toMatchObject({
      ok: false,
      notUbl: expect.stringContaining('not a UBL 2.1 Invoice or CreditNote'),
    });
  });

  it('when it states no amount due, then it is refused under BR-09', () => {
    const reading = read(invoice.replace(/<cbc:PayableAmount[^>]*>[^<]*<\/cbc:PayableAmount>/, ''));
    expect(reading).toMatchObject({ ok: false, violations: [{ rule: 'BR-09' }] });
  });
});

describe('what a UBL states that the JSON path checks too', () => {
  const payable = '<cbc:PayableAmount currencyID="EUR">1656.25</cbc:PayableAmount>';
  const withRounding = (amount: string) =>
    invoice.replace(
      payable,
      `<cbc:PayableRoundingAmount currencyID="EUR">${amount}</cbc:PayableRoundingAmount>${payable}`,
    );

  it('a payable rounding (BT-114) under one unit either way is taken; one of a unit or more is refused where the UBL states it', () => {
    expect(read(withRounding('-0.99')).ok).toBe(true);
    expect(read(withRounding('1.00'))).toEqual({
      ok: false,
      violations: [
        {
          path: 'cac:LegalMonetaryTotal/cbc:PayableRoundingAmount',
          rule: 'EINVOICE-BT114',
          message: expect.stringContaining('less than 1'),
        },
      ],
    });
  });
});
