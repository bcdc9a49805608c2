import { ciiOfUbl } from '../../domain/cii/write';
import { readCii } from '../../domain/cii/read';
import { convertDocument } from '../../domain/documents/convert';
import { documentInputSchema } from '../../domain/documents/input';
import { parsePath } from '../../domain/terms/paths';
import { readUbl, type ReceivedUbl, type UblReadResult } from '../../domain/ubl/received-reader';
import { validFixtures } from '../fixtures/documents';

/** Where a syntax repeats an element, which one the table's reader takes, and what it names. */

function received(result: UblReadResult): ReceivedUbl {
  if ('unsupported' in result) throw new Error(`read as unsupported: ${result.unsupported}`);
  return result;
}

const parses = (document: ReceivedUbl['document']) =>
  documentInputSchema.safeParse({ company_id: 'com_received', ...document }).success;

const standard = validFixtures[0]!;
const converted = convertDocument(documentInputSchema.parse(standard.body), standard.company);
const ubl = converted.ok ? converted.ubl : '';
const cii = (() => {
  const made = ciiOfUbl(ubl);
  return 'cii' in made ? made.cii : '';
})();

/** The UBL with `insert` put right before the first occurrence of `before`. */
function withBefore(before: string, insert: string, xml = ubl): string {
  expect(xml).toContain(before);
  return xml.replace(before, `${insert}${before}`);
}

describe('the path language', () => {
  it('when a predicate names a descendant by a path of its own, then its slashes do not split the step, and it compares text or an attribute', () => {
    const steps = parsePath('cac:PartyTaxScheme[cac:TaxScheme/cbc:ID=$taxScheme]/cbc:CompanyID');
    expect(steps).toHaveLength(2);
    expect(steps[0]).toMatchObject({
      local: 'PartyTaxScheme',
      children: [{ child: 'cac:TaxScheme/cbc:ID', value: '$taxScheme', has: true }],
    });
    expect(parsePath('cac:PartyIdentification[cbc:ID@schemeID!=SEPA]/cbc:ID')[0]).toMatchObject({
      children: [{ child: 'cbc:ID', attribute: 'schemeID', value: 'SEPA', has: false }],
    });
  });
});

describe('UBL read by the term table', () => {
  it('when a party has a tax registration in another scheme before its VAT one, then the view takes the VAT one and names the other', () => {
    const norwegian =
      '<cac:PartyTaxScheme><cbc:CompanyID>Foretaksregisteret</cbc:CompanyID><cac:TaxScheme><cbc:ID>TAX</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>';
    const reading = received(readUbl(withBefore('<cac:PartyTaxScheme>', norwegian)));
    expect(reading.document.from.tax_id).toBe('BE0123456749');
    expect(reading.unmapped).toEqual(['cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme']);
  });

  it('when a party is registered in another tax scheme only, then the view has no VAT id', () => {
    const reading = received(
      readUbl(
        ubl.replace(
          '<cbc:CompanyID>BE0123456749</cbc:CompanyID>\n        <cac:TaxScheme>\n          <cbc:ID>VAT</cbc:ID>',
          '<cbc:CompanyID>BE0123456749</cbc:CompanyID>\n        <cac:TaxScheme>\n          <cbc:ID>TAX</cbc:ID>',
        ),
      ),
    );
    expect(reading.document.from.tax_id).toBeUndefined();
    expect(reading.unmapped).toEqual(['cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme']);
  });

  it('when payment means repeat, then the view takes the first whole and names the others once', () => {
    const second =
      '<cac:PaymentMeans><cbc:PaymentMeansCode>58</cbc:PaymentMeansCode><cac:PayeeFinancialAccount><cbc:ID>NL91ABNA0417164300</cbc:ID></cac:PayeeFinancialAccount></cac:PaymentMeans>';
    const reading = received(readUbl(withBefore('<cac:PaymentTerms>', second)));
    expect(reading.document.payment).toMatchObject({ means_code: '30', iban: 'BE68539007547034' });
    expect(reading.unmapped).toEqual(['cac:PaymentMeans: 1 more; the JSON view carries the first only']);
  });

  it('when a period has a start only, then the view has no period, names why, and still parses', () => {
    const reading = received(
      readUbl(
        withBefore(
          '<cac:AccountingSupplierParty>',
          '<cac:InvoicePeriod><cbc:StartDate>2026-11-01</cbc:StartDate></cac:InvoicePeriod>',
        ),
      ),
    );
    expect(reading.document.period).toBeUndefined();
    expect(reading.unmapped).toEqual([
      'cac:InvoicePeriod/cbc:StartDate: a period without an end; the JSON view takes start and end together',
    ]);
    expect(parses(reading.document)).toBe(true);
  });

  it('when a total is stated in another currency than the document’s, then it is not taken and is named', () => {
    const reading = received(
      readUbl(ubl.replace(/<cbc:TaxExclusiveAmount currencyID="EUR">/, '<cbc:TaxExclusiveAmount currencyID="USD">')),
    );
    expect(reading.stated_totals.tax_exclusive).toBeNull();
    expect(reading.unmapped).toEqual(['cac:LegalMonetaryTotal/cbc:TaxExclusiveAmount']);
  });

  it('when a VAT category names its code list, then UNCL5305 is understood and another list named', () => {
    const listed = (scheme: string) =>
      ubl.replace(/<cac:ClassifiedTaxCategory>\s*<cbc:ID>/, `<cac:ClassifiedTaxCategory><cbc:ID schemeID="${scheme}">`);
    expect(received(readUbl(listed('UNCL5305'))).unmapped).toEqual([]);
    expect(received(readUbl(listed('OTHER'))).unmapped).toEqual([
      'cac:InvoiceLine/cac:Item/cac:ClassifiedTaxCategory/cbc:ID/@schemeID',
    ]);
  });

  it('when a tax category is in another scheme than the document’s, then that scheme is named', () => {
    const reading = received(
      readUbl(ubl.replace(/(<cac:ClassifiedTaxCategory>[\s\S]*?<cac:TaxScheme>\s*<cbc:ID>)VAT/, '$1GST')),
    );
    expect(reading.unmapped).toEqual(['cac:InvoiceLine/cac:Item/cac:ClassifiedTaxCategory/cac:TaxScheme']);
  });
});

describe('CII read by the term table', () => {
  it('when a party has a tax number (FC) before its VAT id (VA), then the view takes the VAT id and names the other', () => {
    const registration = '<ram:SpecifiedTaxRegistration>';
    expect(cii).toContain(registration);
    const reading = received(
      readCii(
        cii.replace(
          registration,
          `<ram:SpecifiedTaxRegistration><ram:ID schemeID="FC">201/113/40209</ram:ID></ram:SpecifiedTaxRegistration>${registration}`,
        ),
      ),
    );
    expect(reading.document.from.tax_id).toBe('BE0123456749');
    expect(reading.unmapped).toEqual([
      'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:SellerTradeParty/ram:SpecifiedTaxRegistration',
    ]);
  });

  it('when the document is read as it was written, then its view is the UBL’s and nothing is unmapped', () => {
    const fromCii = received(readCii(cii));
    const fromUbl = received(readUbl(ubl));
    expect(fromCii.document).toEqual(fromUbl.document);
    expect(fromCii.unmapped).toEqual([]);
  });
});
