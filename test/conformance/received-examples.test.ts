import Decimal from 'decimal.js';

import { calculate } from '../../domain/documents/calculate';
import { convertDocument, withCompanyDefaults, type SendingCompany } from '../../domain/documents/convert';
import { documentInputSchema, type DocumentInput } from '../../domain/documents/input';
import { termsOfInput } from '../../domain/terms/from-input';
import { writeUbl } from '../../domain/ubl/write';
import { readUbl, type ReceivedUbl } from '../../domain/ubl/received-reader';
import { officialExamples, totalsWritten, REFUSED_BY_OUR_CHECKS } from '../support/official-examples';
import { validateUbl, type ValidationResult } from '../support/peppol-validator';

/**
 * Round trip of the official examples (issue 19, "Done when"): each Peppol BIS
 * example is received (read into the JSON view) and that JSON is posted back
 * through the converter; the UBL it gives must pass the official rules and
 * state the same totals. The CEN examples are EN 16931 core, not Peppol: the
 * official rules judge them as received, naming each finding by rule id
 * (that their JSON view carries their totals is shown in
 * test/unit/ubl-read.test.ts, with the rest of the reading).
 */

/** The company the JSON view is posted as: it adds nothing, so everything comes from the received document. */
const addingNothing = (document: DocumentInput): SendingCompany => ({
  name: document.from.name ?? '',
  country: document.from.address?.country ?? '',
});

/** Where the official rules refuse the UBL written from an example's JSON view: the rules, and why. */
const OFFICIALLY_REFUSED: Record<string, { rules: string[]; why: string }> = {
  'peppol-bis/vat-category-O.xml': {
    rules: ['BR-CO-26'],
    why: 'its seller identifier (BT-29) is not in the JSON view, so the seller has no identifier left',
  },
};

interface RoundTrip {
  name: string;
  received: ReceivedUbl;
  refused: string[];
  ubl: string;
}

function roundTrip(name: string, xml: string): RoundTrip {
  const received = readUbl(xml);
  if ('unsupported' in received) throw new Error(`${name} is unsupported: ${received.unsupported}`);
  const document = documentInputSchema.parse({ company_id: 'com_received', ...received.document });
  const company = addingNothing(document);
  const conversion = convertDocument(document, company);
  if (conversion.ok) return { name, received, refused: [], ubl: conversion.ubl };
  const withDefaults = withCompanyDefaults(document, company);
  return {
    name,
    received,
    refused: conversion.violations.map(({ path, rule }) => (rule ? `${path} ${rule}` : path)),
    ubl: writeUbl(termsOfInput(withDefaults, calculate(withDefaults))),
  };
}

/** An amount to the cent, for comparing amounts written differently (`1300` and `1300.00`). */
const cents = (value: Decimal.Value | null) => new Decimal(value ?? 0).toFixed(2);

const peppolExamples = officialExamples('peppol-bis').map(({ name, xml }) => roundTrip(name, xml));

describe.each(peppolExamples)('the Peppol BIS example $name, received and posted back', (example) => {
  let result: ValidationResult | undefined;

  beforeAll(async () => {
    [result] = await validateUbl([{ name: example.name, xml: example.ubl }]);
  });

  it('when its JSON view is posted, then our checks accept it, or refuse only what the example cannot pass for a named reason', () => {
    expect(example.refused).toEqual(REFUSED_BY_OUR_CHECKS[example.name]?.refused ?? []);
  });

  it('when the UBL written from its JSON view is validated officially, then nothing is fatal, or only the named rules', () => {
    expect(result).toBeDefined();
    expect([...new Set(result?.fatal.map((finding) => finding.rule))]).toEqual(
      OFFICIALLY_REFUSED[example.name]?.rules ?? [],
    );
  });

  it('when the UBL written from its JSON view is read, then it states the payable, tax exclusive, tax inclusive and VAT totals the example states', () => {
    const stated = example.received.stated_totals;
    const written = totalsWritten(example.ubl);
    // The rounding amount (BT-114) travels too: the Norwegian example's payable comes back rounded.
    expect({
      payable: cents(written.payable),
      tax_exclusive: cents(written.tax_exclusive),
      tax_inclusive: cents(written.tax_inclusive),
      tax: cents(written.tax),
    }).toEqual({
      payable: cents(stated.payable),
      tax_exclusive: cents(stated.tax_exclusive),
      tax_inclusive: cents(stated.tax_inclusive),
      tax: cents(stated.tax),
    });
  });
});

describe('the CEN EN 16931 examples, received', () => {
  const cenExamples = officialExamples('en16931');
  /** The ones that are also valid Peppol BIS documents; the others break Peppol rules (no EndpointID, another CustomizationID …). */
  const validOnPeppol = [
    'en16931/BIS3_Invoice_negativ.XML',
    'en16931/BIS3_Invoice_positive.XML',
    'en16931/FT G2G_TD01 con Allegato, Bonifico e Split Payment.xml',
  ];
  let results: ValidationResult[];

  beforeAll(async () => {
    results = await validateUbl(cenExamples.map(({ name, xml }) => ({ name, xml })));
  }, 120_000);

  it('when each is validated as received, then the official rules judge it and name every finding by its rule id', () => {
    expect(results.filter((result) => result.valid).map((result) => result.name)).toEqual(validOnPeppol);
    for (const finding of results.flatMap((result) => [...result.fatal, ...result.warnings]))
      expect(finding.rule).toMatch(/^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$/);
  });
});
