import { readFileSync } from 'node:fs';
import path from 'node:path';

import { validateXML } from 'xmllint-wasm';

import {
  businessCardFingerprint,
  businessCardXml,
  companyBusinessCard,
  readBusinessCard,
} from '../../domain/peppol/directory';

/** Our business cards, against the Directory's published schema (test/fixtures/third-party/directory/). */

const schema = [
  {
    fileName: 'peppol-directory-business-card-20180621.xsd',
    contents: readFileSync(
      path.join(__dirname, '..', 'fixtures', 'third-party', 'directory', 'peppol-directory-business-card-20180621.xsd'),
      'utf8',
    ),
  },
];
const company = {
  name: 'Acme & Söhne BV',
  country: 'BE',
  company_registration_id: '0123456749',
  tax_id: 'BE0123456749',
};
const registeredAt = new Date('2026-11-02T09:30:00Z');

describe('a company’s Peppol Directory business card', () => {
  it('is valid under the Directory’s schema, with and without identifiers, and reads back as written', async () => {
    for (const fields of [
      company,
      { name: company.name, country: 'NL', company_registration_id: null, tax_id: null },
    ]) {
      const card = companyBusinessCard(fields, '0208:0123456749', registeredAt);
      const xml = businessCardXml(card);
      expect((await validateXML({ xml: [{ fileName: 'card.xml', contents: xml }], schema })).errors).toEqual([]);
      expect(readBusinessCard(xml)).toEqual([card]);
    }
  });

  it('shows the name, country, VAT number as vat, registration number as orgnr, and the day it was registered', () => {
    expect(companyBusinessCard(company, '0208:0123456749', registeredAt)).toEqual({
      participant: '0208:0123456749',
      name: 'Acme & Söhne BV',
      country: 'BE',
      identifiers: [
        { scheme: 'vat', value: 'BE0123456749' },
        { scheme: 'orgnr', value: '0123456749' },
      ],
      registrationDate: '2026-11-02',
    });
  });

  it('changes its fingerprint when what it shows changes, and only then', () => {
    const card = companyBusinessCard(company, '0208:0123456749', registeredAt);
    expect(businessCardFingerprint(companyBusinessCard({ ...company }, '0208:0123456749', registeredAt))).toBe(
      businessCardFingerprint(card),
    );
    expect(
      businessCardFingerprint(companyBusinessCard({ ...company, name: 'Acme BV' }, '0208:0123456749', registeredAt)),
    ).not.toBe(businessCardFingerprint(card));
  });

  it('refuses to read what is not a business card', () => {
    expect(() => readBusinessCard('<ServiceGroup xmlns="http://busdox.org/serviceMetadata/publishing/1.0/"/>')).toThrow(
      /not a business card/,
    );
  });
});
