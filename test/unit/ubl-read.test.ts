import Decimal from 'decimal.js';

import { calculate } from '../../domain/documents/calculate';
import { convertDocument } from '../../domain/documents/convert';
import { documentInputSchema } from '../../domain/documents/input';
import { readUbl, type ReceivedUbl, type UblReadResult } from '../../domain/ubl/received-reader';
import { validFixtures } from '../fixtures/documents';
import { embeddedFileCount, officialExamples, totalsWritten } from '../support/official-examples';

const examples = [...officialExamples('peppol-bis'), ...officialExamples('en16931')];

function received(result: UblReadResult): ReceivedUbl {
  if ('unsupported' in result) throw new Error(`read as unsupported: ${result.unsupported}`);
  return result;
}

const parse = (document: ReceivedUbl['document']) =>
  documentInputSchema.safeParse({ company_id: 'com_received', ...document });

/** Examples whose JSON view the input schema refuses, because the input cannot say what they say: the refused fields, and why. */
const NOT_EXPRESSIBLE: Record<string, { fields: string[]; why: string }> = {
  'en16931/FT G2G_TD01 con Allegato, Bonifico e Split Payment.xml': {
    fields: ['lines.0.tax_category'],
    why: 'VAT category B (Italian split payment), which the input does not take',
  },
};

/**
 * Examples whose JSON view computes other totals than they state, and why;
 * the reader names the cause in `unmapped` each time.
 */
const OTHER_TOTALS: Record<string, 'line amounts not quantity × price'> = {
  // EN 16931 core examples whose line amounts do not follow from quantity × price; the official
  // Peppol rules refuse them for that (PEPPOL-EN16931-R120), the CEN rules do not check it.
  'en16931/guide-example1.xml': 'line amounts not quantity × price',
  'en16931/guide-example2.xml': 'line amounts not quantity × price',
  'en16931/guide-example3.xml': 'line amounts not quantity × price',
  'en16931/ubl-tc434-example1.xml': 'line amounts not quantity × price',
  'en16931/ubl-tc434-example10.xml': 'line amounts not quantity × price',
  'en16931/ubl-tc434-example2.xml': 'line amounts not quantity × price',
  'en16931/ubl-tc434-example3.xml': 'line amounts not quantity × price',
};

const amount = (value: string | null) => new Decimal(value ?? 0);

describe.each(examples)('the official example $name, received', ({ name, xml }) => {
  const result = readUbl(xml);

  it('when read, then it is an invoice or credit note as its root element says', () => {
    expect(received(result).kind).toBe(/<(\w+:)?CreditNote\b/.test(xml) ? 'credit_note' : 'invoice');
  });

  it('when its JSON view is parsed with the input schema, then it passes, or fails only where the input cannot say what it says', () => {
    const parsed = parse(received(result).document);
    const refused = parsed.success ? [] : parsed.error.issues.map((issue) => issue.path.join('.'));
    expect(refused).toEqual(NOT_EXPRESSIBLE[name]?.fields ?? []);
  });

  it('when read, then its stated totals are the amounts its XML writes', () => {
    expect(received(result).stated_totals).toEqual({ ...totalsWritten(xml), tax_breakdown: expect.any(Array) });
    expect(received(result).stated_totals.tax_breakdown.length).toBe((xml.match(/<cac:TaxSubtotal>/g) ?? []).length);
  });

  it('when its JSON view is calculated, then it gives the stated totals, or the reader names why not', () => {
    const reading = received(result);
    const parsed = parse(reading.document);
    if (!parsed.success) {
      expect(NOT_EXPRESSIBLE[name]).toBeDefined();
      return;
    }
    const totals = calculate(parsed.data).totals;
    const stated = reading.stated_totals;
    const computed = {
      line_extension: totals.lineExtension,
      allowance_total: totals.allowanceTotal,
      charge_total: totals.chargeTotal,
      tax_exclusive: totals.taxExclusive,
      tax: totals.tax,
      tax_inclusive: totals.taxInclusive,
      prepaid: totals.prepaid,
      payable: totals.payable,
    };
    const differing = Object.entries(computed)
      .filter(([key, value]) => !value.equals(amount(stated[key as keyof typeof computed])))
      .map(([key]) => key);
    switch (OTHER_TOTALS[name]) {
      case undefined:
        expect(differing).toEqual([]);
        break;
      case 'line amounts not quantity × price':
        expect(differing).toContain('line_extension');
        expect(reading.unmapped).toContainEqual(
          expect.stringMatching(/^cac:(Invoice|CreditNote)Line\/cbc:LineExtensionAmount: .* give /),
        );
        break;
    }
  });

  it('when it embeds files, then each is decoded, and in the JSON view as base64 with its name and type', () => {
    const reading = received(result);
    expect(reading.attachments).toHaveLength(embeddedFileCount(xml));
    for (const attachment of reading.attachments) {
      expect(attachment.content.length).toBeGreaterThan(0);
      expect(reading.document.attachments).toContainEqual(
        expect.objectContaining({
          filename: attachment.filename,
          mime_type: attachment.mime_code,
          content: attachment.content.toString('base64'),
        }),
      );
    }
  });
});

describe('what the JSON view of a received document leaves out', () => {
  const read = (name: string) => received(readUbl(examples.find((example) => example.name === name)!.xml));

  it('when an example carries what the input has no field for, then unmapped names it by UBL path, once per path', () => {
    const { unmapped } = read('peppol-bis/base-example.xml');
    expect(unmapped).toEqual(
      expect.arrayContaining([
        'cbc:AccountingCost',
        'cac:AccountingSupplierParty/cac:Party/cac:PostalAddress/cbc:AdditionalStreetName',
        // Its buyer's legal id has scheme 0183, where the input takes the id alone (its scheme follows from the country).
        'cac:AccountingCustomerParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyID/@schemeID',
        'cac:Delivery/cac:DeliveryParty',
        'cac:InvoiceLine/cac:Item/cbc:Description',
      ]),
    );
    expect(new Set(unmapped).size).toBe(unmapped.length);
  });

  it('when the parties carry identifiers (BT-29, BT-46), then the view has each with its scheme', () => {
    const { document, unmapped } = read('peppol-bis/base-example.xml');
    expect(document.from).toMatchObject({ identifier: '99887766' });
    expect(document.from.identifier_scheme).toBeUndefined();
    expect(document.to).toMatchObject({ identifier: 'FR23342', identifier_scheme: '0002' });
    expect(unmapped.filter((path) => path.includes('PartyIdentification'))).toEqual([]);
  });

  it('when the trading name differs from the registration name, then the view takes the registration name and names the trading one', () => {
    const reading = read('peppol-bis/base-example.xml');
    expect(reading.document.from.name).toBe('SupplierOfficialName Ltd');
    expect(reading.unmapped).toContain(
      'cac:AccountingSupplierParty/cac:Party/cac:PartyName/cbc:Name: a trading name other than the name (SupplierOfficialName Ltd); the JSON view has one name',
    );
  });

  it('when a price is stated per base quantity, then the view gives the price of one unit', () => {
    // Line 2 of the example: 200.00 per 2 pieces.
    expect(read('peppol-bis/Allowance-example.xml').document.lines[1]).toMatchObject({
      quantity: '10',
      unit: 'C62',
      unit_price: '100',
    });
  });

  it('when an exempt category has its reason in the VAT breakdown, then the view puts it on each item of that category', () => {
    const { document } = read('peppol-bis/vat-category-E.xml');
    expect(
      document.lines.every((line) => line.tax_category === 'E' && line.tax_exemption_reason_code === 'VATEX-EU-F'),
    ).toBe(true);
  });

  it('when an EN 16931 core example says 0 for an allowance, then the view takes it as one (an xs:boolean)', () => {
    expect(read('en16931/ubl-tc434-example2.xml').document.allowances).toEqual([
      expect.objectContaining({ amount: '100.00', reason: 'Promotion discount' }),
    ]);
  });

  it('when the tax currency differs, then the view keeps the VAT total in the document currency and names the second one', () => {
    const reading = read('peppol-bis/Allowance-example.xml');
    expect(reading.stated_totals.tax).toBe(
      totalsWritten(examples.find((example) => example.name === 'peppol-bis/Allowance-example.xml')!.xml).tax,
    );
    // The second (BT-111, in the tax currency) has no field in the view.
    expect(reading.unmapped).toContain('cac:TaxTotal');
    expect(reading.unmapped).toContain('cbc:TaxCurrencyCode');
  });
});

describe('UBL the service writes, read back', () => {
  it.each(validFixtures.map((fixture) => [fixture.name, fixture] as const))(
    'when %s is converted, read and converted again, then the UBL is the same and nothing is unmapped',
    (_name, fixture) => {
      const first = convertDocument(documentInputSchema.parse(fixture.body), fixture.company);
      if (!first.ok) throw new Error('the fixture is refused');
      const reading = received(readUbl(first.ubl));
      // A company that adds nothing: everything comes from the JSON view.
      const second = convertDocument(documentInputSchema.parse({ company_id: 'com_received', ...reading.document }), {
        name: 'unused',
        country: 'ZZ',
      });
      expect(second.ok && second.ubl).toBe(first.ubl);
      expect(reading.unmapped).toEqual([]);
    },
  );
});

describe('a value the input schema refuses', () => {
  const standard = validFixtures[0]!;
  const converted = convertDocument(documentInputSchema.parse(standard.body), standard.company);
  const ubl = converted.ok ? converted.ubl : '';

  it('when an optional value breaks the input schema, then the view leaves it out, names it, and still parses', () => {
    const withBadEmail = ubl.replace(
      '<cbc:ElectronicMail>ap@buyer.example</cbc:ElectronicMail>',
      '<cbc:ElectronicMail>not an address</cbc:ElectronicMail>',
    );
    expect(withBadEmail).not.toBe(ubl);
    const reading = received(readUbl(withBadEmail));
    expect(reading.document.to.email).toBeUndefined();
    expect(reading.unmapped).toContainEqual(
      expect.stringMatching(
        /^cac:AccountingCustomerParty\/cac:Party\/cac:Contact\/cbc:ElectronicMail: .*left out of the JSON view$/,
      ),
    );
    expect(parse(reading.document).success).toBe(true);
  });

  it('when an amount is no decimal number, then it is named and not guessed', () => {
    const reading = received(
      readUbl(ubl.replace(/<cbc:PayableAmount currencyID="EUR">[^<]*</, '<cbc:PayableAmount currencyID="EUR">1e3<')),
    );
    expect(reading.stated_totals.payable).toBeNull();
    expect(reading.unmapped).toContain('cac:LegalMonetaryTotal/cbc:PayableAmount: "1e3" is not a decimal number');
  });
});

describe('a received document missing anything or saying nonsense anywhere', () => {
  it('when any one element of an example is removed, or its text made "x", then the reader still answers, never throws', () => {
    const { xml } = examples.find((example) => example.name === 'peppol-bis/Allowance-example.xml')!;
    // Every element, nested ones too: from each start tag to its end tag.
    const extent = /<(c[ab]c:\w+)\b[^>]*?(?:\/>|>[\s\S]*?<\/\1>)/y;
    const elements = [...xml.matchAll(/<c[ab]c:/g)].map(({ index }) => {
      extent.lastIndex = index;
      return { index, element: extent.exec(xml)![0] };
    });
    const variants = elements.flatMap(({ element, index }) => {
      const around = (replacement: string) => xml.slice(0, index) + replacement + xml.slice(index + element.length);
      return [around(''), around(element.replace(/>[^<>]+</, '>x<'))];
    });
    expect(variants.length).toBeGreaterThan(100);
    for (const variant of variants) expect(() => readUbl(variant)).not.toThrow();
  });
});

describe('what is not a UBL invoice or credit note', () => {
  it('when the XML is not well-formed, then it is unsupported, saying where', () => {
    expect(readUbl('<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><cbc:ID>')).toEqual({
      unsupported: expect.stringMatching(/^not well-formed XML: line 1, column \d+: /),
    });
  });

  it('when the root is another document, or an Invoice in another namespace, then it is unsupported, naming the root', () => {
    expect(readUbl('<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"/>')).toEqual({
      unsupported:
        'the root element is {urn:oasis:names:specification:ubl:schema:xsd:Order-2}Order, not a UBL 2.1 Invoice or CreditNote',
    });
    expect(readUbl('<Invoice xmlns="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"/>')).toEqual({
      unsupported: expect.stringContaining('not a UBL 2.1 Invoice or CreditNote'),
    });
  });

  it('when the XML nests deeper than UBL ever does, then it is unsupported before any tree is built', () => {
    const deep = `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">${'<a>'.repeat(100)}${'</a>'.repeat(100)}</Invoice>`;
    expect(readUbl(deep)).toEqual({ unsupported: expect.stringMatching(/^the XML is nested deeper than 64 /) });
  });
});
