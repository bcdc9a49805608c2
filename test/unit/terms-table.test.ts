import { readCii } from '../../domain/cii/read';
import { writeCii } from '../../domain/cii/write';
import { parsePath, valueAt } from '../../domain/terms/paths';
import { TERMS, TERM_GROUPS, childGroups } from '../../domain/terms/table';
import { readUbl } from '../../domain/ubl/received-reader';
import { writeUbl } from '../../domain/ubl/write';
import { EVERY_TERM } from '../support/every-term';

/** The term table (domain/terms/table.ts) and what it drives, without a server. */

/** Each instance of a group in the fixture: the document, its parties … its lines' allowances. */
function instancesOf(groupName: string): Record<string, unknown>[] {
  const walk = (name: string, instance: Record<string, unknown>): Record<string, unknown>[] => [
    ...(name === groupName ? [instance] : []),
    ...childGroups(name as never).flatMap((child) => {
      const value = valueAt(instance, child.json);
      const each = child.repeats
        ? ((value as Record<string, unknown>[] | undefined) ?? [])
        : value
          ? [value as Record<string, unknown>]
          : [];
      return each.flatMap((item) => walk(child.name, item));
    }),
  ];
  return walk('document', EVERY_TERM);
}

describe('the term table', () => {
  it('when its rows are listed, then each business term is there once per group and each JSON path once per group', () => {
    const keys = TERMS.map((term) => `${term.group} ${term.id}`);
    expect(new Set(keys).size).toBe(keys.length);
    const jsonKeys = TERMS.map((term) => `${term.group} ${term.json}`);
    expect(new Set(jsonKeys).size).toBe(jsonKeys.length);
  });

  it('when every path is parsed, then each is a path of the table’s language', () => {
    for (const holder of [...TERMS, ...TERM_GROUPS]) {
      expect(() => parsePath(holder.ubl)).not.toThrow();
      expect(() => parsePath(holder.cii)).not.toThrow();
    }
  });

  it.each(TERMS.map((term) => ({ id: term.id, group: term.group, json: term.json })))(
    'when the fixture is read for $id ($group), then it has a value, so the writers are checked with every term',
    ({ group, json }) => {
      expect(instancesOf(group).some((instance) => valueAt(instance, json) !== undefined)).toBe(true);
    },
  );
});

describe('CII written and read by the table', () => {
  const cii = writeCii(EVERY_TERM);
  const read = readCii(cii);
  if ('unsupported' in read) throw new Error(read.unsupported);

  it('when a document with every term is written and read again, then nothing is left unmapped but the reference the JSON view has no field for', () => {
    expect(read.unmapped).toEqual([
      'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:AdditionalReferencedDocument: a supporting document without an embedded file; the JSON view carries embedded files only',
    ]);
  });

  it('when it is read again, then the JSON view says what the terms said', () => {
    const {
      specification: _s,
      process: _p,
      taxScheme: _scheme,
      type_code: _t,
      totals,
      vat_breakdown: _v,
      lines,
      attachments,
      from,
      to,
      ...document
    } = EVERY_TERM;
    const withoutTradingName = ({ trading_name: _name, ...party }: typeof from) => party;
    expect(read.document).toEqual({
      ...document,
      from: withoutTradingName(from),
      to: withoutTradingName(to),
      lines: lines.map(({ id: _id, net: _net, price_base_quantity: _q, price_base_unit: _u, ...line }) => line),
      attachments: attachments!
        .filter((attachment) => attachment.content)
        .map(({ id: _id, ...attachment }) => attachment),
      payment: { ...document.payment, prepaid_amount: totals.prepaid, rounding_amount: totals.payable_rounding },
    });
    expect(read.stated_totals).toEqual({
      ...totals,
      tax_breakdown: EVERY_TERM.vat_breakdown.map(({ category, rate, taxable, tax }) => ({
        category,
        rate,
        taxable,
        tax,
      })),
    });
    expect(read.stated_line_nets).toEqual(['100.00', '50.00']);
  });

  it('when it is written, then dates are CCYYMMDD with format 102 and every tax says VAT', () => {
    expect(cii).toContain('<udt:DateTimeString format="102">20261201</udt:DateTimeString>');
    expect(cii.match(/<ram:TypeCode>VAT<\/ram:TypeCode>/g)).toHaveLength(6);
    expect(cii).toContain('<ram:TaxTotalAmount currencyID="EUR">19.95</ram:TaxTotalAmount>');
  });

  it('when a value carries markup, then it is written as text', () => {
    const written = writeCii({ ...EVERY_TERM, note: '<script>alert(1)</script> & &amp;' });
    expect(written).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &amp;amp;');
  });
});

describe('UBL written by the table', () => {
  it('when a document with every term is written as UBL and as CII, then the UBL reader and the CII reader give the same JSON view and totals', () => {
    const ubl = readUbl(writeUbl(EVERY_TERM));
    const cii = readCii(writeCii(EVERY_TERM));
    if ('unsupported' in ubl || 'unsupported' in cii) throw new Error('not read');
    expect(ubl.document).toEqual(cii.document);
    expect(ubl.stated_totals).toEqual(cii.stated_totals);
    expect(ubl.stated_line_nets).toEqual(cii.stated_line_nets);
    // The reference without a file, which neither view has a field for.
    expect(ubl.unmapped).toEqual([
      'cac:AdditionalDocumentReference: a supporting document without an embedded file; the JSON view carries embedded files only',
    ]);
  });

  it('when a credit note is written, then its root, type code, lines, quantities and due date are a credit note’s', () => {
    const ubl = writeUbl({ ...EVERY_TERM, type: 'credit_note', type_code: '381' });
    expect(ubl).toMatch(
      /^<\?xml[^>]*>\s*<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"/,
    );
    expect(ubl).toContain('<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>');
    expect(ubl).toContain('<cbc:CreditedQuantity unitCode="HUR">2</cbc:CreditedQuantity>');
    expect(ubl).toMatch(
      /<cac:PaymentMeans>\s*<cbc:PaymentMeansCode>59<\/cbc:PaymentMeansCode>\s*<cbc:PaymentDueDate>2026-12-31<\/cbc:PaymentDueDate>/,
    );
    expect(ubl).not.toMatch(/InvoiceLine|InvoicedQuantity|<cbc:DueDate>/);
  });

  it('when a party has no trading name, then its name is written as its legal name only, never repeated as a trading name (BT-28)', () => {
    const ubl = writeUbl({ ...EVERY_TERM, from: { ...EVERY_TERM.from, trading_name: undefined } });
    expect(ubl.match(/<cac:PartyName>/g)).toHaveLength(1);
  });
});
