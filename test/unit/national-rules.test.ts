import { convertDocument, type SendingCompany } from '../../domain/documents/convert';
import { documentInputSchema } from '../../domain/documents/input';
import {
  danishSeller,
  dutchDomesticCreditNote,
  dutchSeller,
  germanDomesticInvoice,
  germanSeller,
  greekInvoice,
  greekSeller,
  icelandicSeller,
  italianSeller,
  norwegianSeller,
  swedishSeller,
  validFixtures,
} from '../fixtures/documents';

const fixture = (name: string) => validFixtures.find((candidate) => candidate.name.startsWith(name))!.body;
const item = { description: 'x', quantity: 1, unit_price: 10 };
const convert = (body: Record<string, unknown>, company: SendingCompany) =>
  convertDocument(documentInputSchema.parse(body), company);
const violationsOf = (body: Record<string, unknown>, company: SendingCompany) => {
  const result = convert(body, company);
  return result.ok ? [] : result.violations.map((violation) => `${violation.path} ${violation.rule ?? '-'}`);
};
const ublOf = (body: Record<string, unknown>, company: SendingCompany) => {
  const result = convert(body, company);
  if (!result.ok) throw new Error(JSON.stringify(result.violations));
  return result.ubl;
};

const dutchInvoice = fixture('NL seller: invoice');
const dutchBuyer = dutchInvoice.to as Record<string, unknown>;

describe('the Netherlands (NL-R-*)', () => {
  it('when a Dutch seller credits a Dutch buyer, then both legal ids carry the KvK scheme 0106 (NL-R-003, NL-R-005)', () => {
    const ubl = ublOf(dutchDomesticCreditNote, dutchSeller);
    expect(ubl).toContain('<cbc:CompanyID schemeID="0106">69229427</cbc:CompanyID>');
    expect(ubl).toContain('<cbc:CompanyID schemeID="0106">12345678</cbc:CompanyID>');
  });

  it.each<[string, Record<string, unknown>, SendingCompany, string[]]>([
    [
      'a credit note without invoice reference',
      { ...dutchDomesticCreditNote, invoice_reference: undefined },
      dutchSeller,
      ['invoice_reference NL-R-001'],
    ],
    [
      'a seller address without street',
      dutchInvoice,
      { ...dutchSeller, address: { city: 'Amsterdam', postal_code: '1015 CV' } },
      ['from.address.street NL-R-002'],
    ],
    [
      'a seller legal id of 7 digits',
      dutchInvoice,
      { ...dutchSeller, company_registration_id: '6922942' },
      ['from.company_registration_id NL-R-003'],
    ],
    [
      'a Dutch buyer without postal code',
      { ...dutchInvoice, to: { ...dutchBuyer, address: { street: 'Damrak 1', city: 'Amsterdam', country: 'NL' } } },
      dutchSeller,
      ['to.address.postal_code NL-R-004'],
    ],
    [
      'a Dutch buyer legal id that is no KvK number',
      { ...dutchInvoice, to: { ...dutchBuyer, company_registration_id: 'KVK-1234' } },
      dutchSeller,
      ['to.company_registration_id NL-R-005'],
    ],
    [
      'an invoice without payment means',
      { ...dutchInvoice, payment: undefined },
      { ...dutchSeller, iban: null },
      ['payment.iban NL-R-007'],
    ],
    [
      'a domestic invoice with only a payment reference (means 1)',
      { ...dutchInvoice, payment: { reference: 'RF18539007547034' } },
      { ...dutchSeller, iban: null },
      ['payment.iban NL-R-008'],
    ],
    [
      'a domestic debit transfer (31)',
      { ...dutchInvoice, payment: { means_code: '31', iban: 'NL91ABNA0417164300' } },
      dutchSeller,
      ['payment.means_code NL-R-008'],
    ],
  ])('when %s, then it is refused naming the Dutch rule', (_name, body, company, expected) => {
    expect(violationsOf(body, company)).toEqual(expected);
  });

  it('when a Dutch credit note pays nothing back, then it needs no payment means, and a foreign buyer may have any address', () => {
    expect(
      violationsOf(
        { ...dutchDomesticCreditNote, due_date: undefined, payment: undefined },
        { ...dutchSeller, iban: null },
      ),
    ).toEqual([]);
    expect(violationsOf({ ...dutchInvoice, to: fixture('standard rate S').to }, dutchSeller)).toEqual([]);
  });
});

describe('Norway, Sweden and Italy (NO-R-001, SE-R-*, IT-R-*)', () => {
  it.each<[string, Record<string, unknown>, SendingCompany, string[]]>([
    [
      'a Norwegian VAT id without MVA',
      fixture('NO seller'),
      { ...norwegianSeller, tax_id: 'NO984009372' },
      ['from.tax_id NO-R-001'],
    ],
    [
      'a Norwegian VAT id with a wrong check digit',
      fixture('NO seller'),
      { ...norwegianSeller, tax_id: 'NO984009373MVA' },
      ['from.tax_id NO-R-001'],
    ],
    [
      'a Swedish VAT id of 13 characters',
      fixture('SE seller'),
      { ...swedishSeller, tax_id: 'SE55919193850' },
      ['from.tax_id SE-R-001'],
    ],
    [
      'a Swedish VAT id with letters',
      fixture('SE seller'),
      { ...swedishSeller, tax_id: 'SE5591919385AB' },
      ['from.tax_id SE-R-002'],
    ],
    [
      'a Swedish standard rate of 21 %',
      { ...fixture('SE seller'), lines: [{ ...item, tax_rate: 21 }] },
      swedishSeller,
      ['lines[0].tax_rate SE-R-006'],
    ],
    [
      'a Swedish organisation number with a dash',
      fixture('SE seller'),
      { ...swedishSeller, company_registration_id: '559191-9385' },
      [
        'from.company_registration_id SE-R-003',
        'from.company_registration_id SE-R-004',
        'from.company_registration_id SE-R-013',
      ],
    ],
    [
      'a Swedish organisation number with a wrong check digit',
      fixture('SE seller'),
      { ...swedishSeller, company_registration_id: '5591919386' },
      ['from.company_registration_id PEPPOL-COMMON-R049', 'from.company_registration_id SE-R-013'],
    ],
    [
      'an Italian seller without street, city and postal code',
      fixture('IT seller'),
      { ...italianSeller, address: null },
      ['from.address.street IT-R-002', 'from.address.city IT-R-003', 'from.address.postal_code IT-R-004'],
    ],
  ])('when %s, then it is refused naming the national rule', (_name, body, company, expected) => {
    expect(violationsOf(body, company)).toEqual(expected);
  });
});

describe('Denmark (DK-R-*)', () => {
  const danishInvoice = fixture('DK seller');

  it('when a Danish seller invoices a Danish buyer with an account and no means code, then the UBL says SEPA credit transfer (58), not 30', () => {
    const ubl = ublOf(danishInvoice, danishSeller);
    expect(ubl).toContain('<cbc:PaymentMeansCode>58</cbc:PaymentMeansCode>');
    expect(ubl).toContain('<cbc:CompanyID schemeID="0184">31474205</cbc:CompanyID>');
    expect(ubl).toContain('<cbc:CompanyID schemeID="0184">26168864</cbc:CompanyID>');
  });

  it.each<[string, Record<string, unknown>, SendingCompany, string[]]>([
    [
      'no CVR number',
      danishInvoice,
      { ...danishSeller, company_registration_id: null },
      ['from.company_registration_id DK-R-002'],
    ],
    [
      'a legal id that is no CVR number',
      danishInvoice,
      { ...danishSeller, company_registration_id: 'A-31474205' },
      ['from.company_registration_id DK-R-014'],
    ],
    [
      'a domestic credit transfer (30)',
      { ...danishInvoice, payment: { means_code: '30', iban: 'DK5000400440116243' } },
      danishSeller,
      ['payment.means_code DK-R-005'],
    ],
    [
      'a bank transfer (42) without registration number',
      { ...danishInvoice, payment: { means_code: '42', iban: '1234567890' } },
      danishSeller,
      ['payment.bic DK-R-006'],
    ],
    [
      'a giro payment (50) without kortartkode',
      { ...danishInvoice, payment: { means_code: '50', iban: '1234567', reference: '12345' } },
      danishSeller,
      ['payment.reference DK-R-008'],
    ],
    [
      'a giro reference 04# that is too short',
      { ...danishInvoice, payment: { means_code: '50', iban: '1234567', reference: '04#123' } },
      danishSeller,
      ['payment.reference DK-R-009'],
    ],
    [
      'a FIK payment (93) with a short creditor number',
      { ...danishInvoice, payment: { means_code: '93', iban: '1234567', reference: '73#12345678' } },
      danishSeller,
      ['payment.reference DK-R-010'],
    ],
    [
      'a FIK reference 71# that is too short',
      { ...danishInvoice, payment: { means_code: '93', iban: '12345678', reference: '71#123' } },
      danishSeller,
      ['payment.reference DK-R-011'],
    ],
    [
      'a domestic credit note with a negative amount due',
      { ...danishInvoice, type: 'credit_note', lines: [{ ...item, quantity: -1, tax_rate: 25 }] },
      danishSeller,
      ['lines DK-R-016'],
    ],
    [
      'a Danish buyer legal id that is no CVR number',
      { ...danishInvoice, to: { ...(danishInvoice.to as object), company_registration_id: 'DK-26168864' } },
      danishSeller,
      ['to.company_registration_id DK-R-017'],
    ],
    [
      'a non-VAT tax (ZZZ) without Danish tax category',
      {
        ...danishInvoice,
        lines: [{ ...item, tax_rate: 25, charges: [{ amount: 1, reason: 'Afgift', reason_code: 'ZZZ' }] }],
      },
      danishSeller,
      ['lines[0].charges[0].reason DK-R-004'],
    ],
  ])('when %s, then it is refused naming the Danish rule', (_name, body, company, expected) => {
    expect(violationsOf(body, company)).toEqual(expected);
  });

  it('when a non-VAT tax names its Danish tax category, then it is accepted', () => {
    expect(
      violationsOf(
        { ...danishInvoice, charges: [{ amount: 5, reason: '0040', reason_code: 'ZZZ', tax_rate: 25 }] },
        danishSeller,
      ),
    ).toEqual([]);
  });
});

describe('Germany, both parties German (DE-R-*)', () => {
  it('when the payment terms end with a cash discount, then the UBL closes it with a line break', () => {
    expect(ublOf(germanDomesticInvoice, germanSeller)).toContain('#SKONTO#TAGE=14#PROZENT=2.00#\n</cbc:Note>');
  });

  it('when the seller gives a contact, then its name, telephone and email are the seller contact', () => {
    expect(ublOf(germanDomesticInvoice, germanSeller)).toMatch(
      /<cac:Contact>\s*<cbc:Name>Erika Mustermann<\/cbc:Name>\s*<cbc:Telephone>\+49 30 1234567<\/cbc:Telephone>\s*<cbc:ElectronicMail>rechnung@lieferant.example<\/cbc:ElectronicMail>/,
    );
  });

  it('when a German domestic invoice is not subject to VAT, then only its breakdown carries a 0 % rate', () => {
    const ubl = ublOf(fixture('DE seller: domestic invoice not subject'), germanSeller);
    expect(ubl.match(/<cbc:Percent>/g)).toHaveLength(1);
    expect(ubl).toMatch(/<cac:TaxSubtotal>[\s\S]*<cbc:ID>O<\/cbc:ID>\s*<cbc:Percent>0<\/cbc:Percent>/);
  });

  it('when the deliver-to address is complete, then it is written with street, city and postal code', () => {
    const ubl = ublOf(
      {
        ...germanDomesticInvoice,
        delivery: { street: 'Lager 3', city: 'Potsdam', postal_code: '14467', country: 'DE' },
      },
      germanSeller,
    );
    expect(ubl).toMatch(
      /<cac:DeliveryLocation>\s*<cac:Address>\s*<cbc:StreetName>Lager 3<\/cbc:StreetName>\s*<cbc:CityName>Potsdam<\/cbc:CityName>\s*<cbc:PostalZone>14467<\/cbc:PostalZone>/,
    );
  });

  const csv = (filename: string) => ({
    filename,
    mime_type: 'text/csv',
    content: Buffer.from('a;b\n').toString('base64'),
  });
  it.each<[string, Record<string, unknown>, SendingCompany, string[]]>([
    [
      'no buyer reference',
      { ...germanDomesticInvoice, buyer_reference: undefined, order_reference: 'PO-77' },
      germanSeller,
      ['buyer_reference DE-R-015'],
    ],
    [
      'no seller contact at all',
      { ...germanDomesticInvoice, from: {} },
      { ...germanSeller, email: null },
      ['from.contact_name DE-R-002'],
    ],
    [
      'a contact without name, telephone or email',
      { ...germanDomesticInvoice, from: { phone: '+49 30 1' } },
      { ...germanSeller, email: null },
      ['from.contact_name DE-R-005', 'from.email DE-R-007'],
    ],
    [
      'a seller without city and postal code',
      germanDomesticInvoice,
      { ...germanSeller, address: { street: 'Friedrichstraße 100' } },
      ['from.address.city DE-R-003', 'from.address.postal_code DE-R-004'],
    ],
    [
      'a buyer without postal code',
      {
        ...germanDomesticInvoice,
        to: { ...(germanDomesticInvoice.to as object), address: { city: 'München', country: 'DE' } },
      },
      germanSeller,
      ['to.address.postal_code DE-R-009'],
    ],
    [
      'a deliver-to country alone',
      { ...germanDomesticInvoice, delivery: { country: 'DE' } },
      germanSeller,
      ['delivery.city DE-R-010', 'delivery.postal_code DE-R-011'],
    ],
    [
      'no payment instructions',
      { ...germanDomesticInvoice, payment: undefined },
      { ...germanSeller, iban: null },
      ['payment.iban DE-R-001'],
    ],
    [
      'payment by card',
      { ...germanDomesticInvoice, payment: { means_code: '48' } },
      germanSeller,
      ['payment.means_code DE-R-024-1'],
    ],
    [
      'a cash discount without decimals',
      { ...germanDomesticInvoice, payment: { terms: 'Net 30\n#SKONTO#TAGE=14#PROZENT=2#' } },
      germanSeller,
      ['payment.terms DE-R-018'],
    ],
    [
      'two attachments with one file name',
      { ...germanDomesticInvoice, attachments: [csv('a.csv'), csv('a.csv')] },
      germanSeller,
      ['attachments[1].filename DE-R-022'],
    ],
  ])('when %s, then it is refused naming the German rule', (_name, body, company, expected) => {
    expect(violationsOf(body, company)).toEqual(expected);
  });

  it('when only one party is German, then the German rules do not apply', () => {
    expect(
      violationsOf(
        {
          ...germanDomesticInvoice,
          from: {},
          buyer_reference: undefined,
          order_reference: 'PO-1',
          to: fixture('standard rate S').to,
        },
        { ...germanSeller, email: null },
      ),
    ).toEqual([]);
  });

  it('when a deliver-to address has no country, then BR-57', () => {
    expect(violationsOf({ ...fixture('standard rate S'), delivery: { city: 'Gent' } }, germanSeller)).toContain(
      'delivery.country BR-57',
    );
  });
});

describe('Greece (GR-R-*)', () => {
  it('when a Greek seller sends its MARK and invoice URL, then they are the supporting documents the Greek rules look for', () => {
    const ubl = ublOf(greekInvoice, greekSeller);
    expect(ubl).toMatch(
      /<cbc:ID>400001234567890<\/cbc:ID>\s*<cbc:DocumentDescription>##M.AR.K##<\/cbc:DocumentDescription>/,
    );
    expect(ubl).toMatch(
      /<cbc:DocumentDescription>##INVOICE\|URL##<\/cbc:DocumentDescription>\s*<cac:Attachment>\s*<cac:ExternalReference>\s*<cbc:URI>https:/,
    );
    expect(ubl).toContain('<cbc:EndpointID schemeID="9933">081926354</cbc:EndpointID>');
  });

  it.each<[string, Record<string, unknown>, SendingCompany, string[]]>([
    ['a number without segments', { ...greekInvoice, number: 'INV-42' }, greekSeller, ['number GR-R-001-1']],
    [
      'a number with 5 segments',
      { ...greekInvoice, number: '081926354|20/11/2026|0|1.1|A' },
      greekSeller,
      ['number GR-R-001-1', 'number GR-R-001-7'],
    ],
    [
      'a number with another TIN',
      { ...greekInvoice, number: '094600005|20/11/2026|0|1.1|A|42' },
      greekSeller,
      ['number GR-R-001-2'],
    ],
    [
      'a number dated otherwise',
      { ...greekInvoice, number: '081926354|2026-11-20|0|1.1|A|42' },
      greekSeller,
      ['number GR-R-001-3'],
    ],
    [
      'a negative branch',
      { ...greekInvoice, number: '081926354|20/11/2026|-1|1.1|A|42' },
      greekSeller,
      ['number GR-R-001-4'],
    ],
    [
      'an unknown document type',
      { ...greekInvoice, number: '081926354|20/11/2026|0|9.9|A|42' },
      greekSeller,
      ['number GR-R-001-5'],
    ],
    [
      'an empty series',
      { ...greekInvoice, number: '081926354|20/11/2026|0|1.1||42' },
      greekSeller,
      ['number GR-R-001-6'],
    ],
    [
      'a VAT id with GR instead of EL',
      greekInvoice,
      { ...greekSeller, tax_id: 'GR081926354' },
      ['from.tax_id GR-R-003'],
    ],
    ['no MARK', { ...greekInvoice, greece: undefined }, greekSeller, ['greece.mark GR-R-004-1']],
    [
      'a MARK that is no positive integer',
      { ...greekInvoice, greece: { mark: '0123' } },
      greekSeller,
      ['greece.mark GR-R-004-2'],
    ],
    [
      'a seller addressed by GLN',
      greekInvoice,
      { ...greekSeller, peppol_id: '0088:5790000435975' },
      ['from.peppol_id GR-R-009'],
    ],
    [
      'a Greek buyer without Greek VAT id and TIN endpoint',
      {
        ...greekInvoice,
        lines: [{ ...item, tax_rate: 24 }],
        to: { name: 'Agorastis A.E.', peppol_id: '0088:5790000435975', address: { country: 'GR' } },
      },
      greekSeller,
      ['to.tax_id GR-R-006', 'to.peppol_id GR-R-010'],
    ],
  ])('when %s, then it is refused naming the Greek rule', (_name, body, company, expected) => {
    expect(violationsOf(body, company)).toEqual(expected);
  });
});

describe('Iceland (IS-R-*)', () => {
  const icelandicInvoice = fixture('IS seller');
  const buyer = icelandicInvoice.to as Record<string, unknown>;

  it('when an Icelandic seller invoices an Icelandic buyer, then both kennitölur carry scheme 0196', () => {
    const ubl = ublOf(icelandicInvoice, icelandicSeller);
    expect(ubl).toContain('<cbc:CompanyID schemeID="0196">5805744919</cbc:CompanyID>');
    expect(ubl).toContain('<cbc:CompanyID schemeID="0196">6305038849</cbc:CompanyID>');
  });

  it.each<[string, Record<string, unknown>, SendingCompany, string[]]>([
    [
      'no kennitala',
      icelandicInvoice,
      { ...icelandicSeller, company_registration_id: null },
      ['from.company_registration_id IS-R-002'],
    ],
    [
      'a seller without street',
      icelandicInvoice,
      { ...icelandicSeller, address: { city: 'Reykjavík', postal_code: '101' } },
      ['from.address.street IS-R-003'],
    ],
    [
      'an Icelandic buyer without kennitala',
      { ...icelandicInvoice, to: { ...buyer, company_registration_id: undefined } },
      icelandicSeller,
      ['to.company_registration_id IS-R-004'],
    ],
    [
      'an Icelandic buyer without postal code',
      { ...icelandicInvoice, to: { ...buyer, address: { street: 'Hafnarstræti 5', country: 'IS' } } },
      icelandicSeller,
      ['to.address.postal_code IS-R-005'],
    ],
    [
      'a claim (9) without 12-digit account',
      { ...icelandicInvoice, payment: { means_code: '9', iban: '0159260076' } },
      icelandicSeller,
      ['payment.iban IS-R-006'],
    ],
    [
      'a bank transfer (42) to an IBAN',
      { ...icelandicInvoice, payment: { means_code: '42', iban: 'IS140159260076545510730339' } },
      icelandicSeller,
      ['payment.iban IS-R-007'],
    ],
  ])('when %s, then it is refused naming the Icelandic rule', (_name, body, company, expected) => {
    expect(violationsOf(body, company)).toEqual(expected);
  });

  it('when the account is the 12-digit Icelandic one, then a bank transfer (42) is accepted', () => {
    expect(
      violationsOf({ ...icelandicInvoice, payment: { means_code: '42', iban: '015926007654' } }, icelandicSeller),
    ).toEqual([]);
  });
});
