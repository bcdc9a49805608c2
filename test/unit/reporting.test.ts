import { endUserStatistics, endUserStatisticsReportXml } from '../../domain/reporting/eusr';
import type { ReportingItem } from '../../domain/reporting/items';
import { monthPeriod, previousMonth } from '../../domain/reporting/months';
import { transactionStatistics, transactionStatisticsReportXml } from '../../domain/reporting/tsr';
import {
  BIS_BILLING_CREDIT_NOTE,
  BIS_BILLING_INVOICE,
  BIS_BILLING_PROCESS,
  END_USER_STATISTICS_REPORT,
  MESSAGE_LEVEL_STATUS,
  PEPPOL_AS4,
} from '../../domain/peppol/capabilities';

/** The pure part of Peppol reporting: what a month's items count to, and the XML it becomes. */

const item = (overrides: Partial<ReportingItem>): ReportingItem => ({
  exchangedAt: new Date('2026-10-14T10:00:00Z'),
  direction: 'sending',
  c2Id: 'PBE000001',
  c3Id: 'PBE000002',
  documentType: BIS_BILLING_INVOICE,
  process: BIS_BILLING_PROCESS,
  transportProtocol: PEPPOL_AS4,
  c1Country: 'BE',
  c4Country: null,
  endUserId: 'cmp_a',
  ...overrides,
});

const MONTH = [
  item({}),
  item({ endUserId: 'cmp_b', c1Country: 'NL' }),
  item({ documentType: BIS_BILLING_CREDIT_NOTE }),
  item({
    direction: 'receiving',
    c2Id: 'PNO000123',
    c3Id: 'PBE000001',
    c1Country: 'NO',
    c4Country: 'BE',
    endUserId: 'cmp_a',
  }),
  item({
    direction: 'receiving',
    c2Id: 'PNO000123',
    c3Id: 'PBE000001',
    c1Country: 'NO',
    c4Country: 'BE',
    endUserId: 'cmp_c',
  }),
  // Counted for TSR only.
  item({ documentType: MESSAGE_LEVEL_STATUS.documentType, endUserId: 'cmp_mls' }),
  // Never counted.
  item({ documentType: END_USER_STATISTICS_REPORT.documentType, endUserId: 'cmp_report' }),
];

describe('transaction statistics (TSR)', () => {
  const statistics = transactionStatistics(MONTH);

  it('counts every message but the reports, incoming and outgoing', () => {
    expect(statistics.total).toEqual({ incoming: 2, outgoing: 4 });
  });

  it('subtotals per transport profile, per other service provider, document type and process, and per countries for incoming only', () => {
    const perTp = statistics.subtotals.filter((subtotal) => subtotal.type === 'PerTP');
    expect(perTp).toEqual([
      {
        type: 'PerTP',
        keys: [{ metaSchemeID: 'TP', schemeID: 'Peppol', value: PEPPOL_AS4 }],
        incoming: 2,
        outgoing: 4,
      },
    ]);
    const perSp = statistics.subtotals.filter((subtotal) => subtotal.type === 'PerSP-DT-PR');
    expect(
      perSp.map((subtotal) => [
        subtotal.keys[0]!.value,
        subtotal.keys[1]!.value === BIS_BILLING_INVOICE.value ? 'invoice' : 'other',
        subtotal.incoming,
        subtotal.outgoing,
      ]),
    ).toEqual(
      expect.arrayContaining([
        ['PBE000002', 'invoice', 0, 2],
        ['PNO000123', 'invoice', 2, 0],
      ]),
    );
    expect(perSp.reduce((sum, subtotal) => sum + subtotal.outgoing, 0)).toBe(4);
    const perCc = statistics.subtotals.filter((subtotal) => subtotal.type === 'PerSP-DT-PR-CC');
    expect(perCc).toHaveLength(1);
    expect(perCc[0]).toMatchObject({ incoming: 2, outgoing: 0 });
    expect(perCc[0]!.keys.slice(3)).toEqual([
      { metaSchemeID: 'CC', schemeID: 'SenderCountry', value: 'NO' },
      { metaSchemeID: 'CC', schemeID: 'ReceiverCountry', value: 'BE' },
    ]);
  });

  it('writes the report for the month with the reporter seat, the same XML for the same items in any order', () => {
    const xml = transactionStatisticsReportXml('2026-10', 'PBE000001', statistics);
    expect(xml).toContain('<TransactionStatisticsReport xmlns="urn:fdc:peppol:transaction-statistics-report:1.0">');
    expect(xml).toContain('<StartDate>2026-10-01</StartDate>');
    expect(xml).toContain('<EndDate>2026-10-31</EndDate>');
    expect(xml).toContain('<ReporterID schemeID="CertSubjectCN">PBE000001</ReporterID>');
    expect(transactionStatisticsReportXml('2026-10', 'PBE000001', transactionStatistics([...MONTH].reverse()))).toBe(
      xml,
    );
  });

  it('an empty month is all zeros and no subtotals', () => {
    expect(transactionStatistics([])).toEqual({ total: { incoming: 0, outgoing: 0 }, subtotals: [] });
  });
});

describe('end user statistics (EUSR)', () => {
  const statistics = endUserStatistics(MONTH);

  it('counts distinct end users, without MLS and reports', () => {
    // Sending: a, b; receiving: a, c.
    expect(statistics.fullSet).toEqual({ sending: 2, receiving: 2, sendingOrReceiving: 3 });
  });

  it('subsets per document type and process, per document type and end user country, both, and per country', () => {
    const perCountry = statistics.subsets
      .filter((subset) => subset.type === 'PerEUC')
      .map((subset) => [subset.keys[0]!.value, subset.sending, subset.receiving, subset.sendingOrReceiving]);
    // a sends from BE and receives in BE; b sends from NL; c receives in BE.
    expect(perCountry).toEqual([
      ['BE', 1, 2, 2],
      ['NL', 1, 0, 1],
    ]);
    const perDocument = statistics.subsets.filter((subset) => subset.type === 'PerDT-PR');
    expect(
      perDocument.map((subset) => [
        subset.keys[0]!.value === BIS_BILLING_INVOICE.value ? 'invoice' : 'credit_note',
        subset.sendingOrReceiving,
      ]),
    ).toEqual(
      expect.arrayContaining([
        ['invoice', 3],
        ['credit_note', 1],
      ]),
    );
    expect(statistics.subsets.every((subset) => subset.sendingOrReceiving > 0)).toBe(true);
  });

  it('writes the report', () => {
    const xml = endUserStatisticsReportXml('2026-02', 'PBE000001', statistics);
    expect(xml).toContain('<EndUserStatisticsReport xmlns="urn:fdc:peppol:end-user-statistics-report:1.1">');
    expect(xml).toContain('<EndDate>2026-02-28</EndDate>');
    expect(xml).toContain('<SendingOrReceivingEndUsers>3</SendingOrReceivingEndUsers>');
  });
});

describe('reporting months', () => {
  it('reads YYYY-MM as its first and last day, and refuses anything else', () => {
    expect(monthPeriod('2028-02')).toMatchObject({ start: '2028-02-01', end: '2028-02-29' });
    expect(() => monthPeriod('2026-13')).toThrow(/YYYY-MM/);
  });

  it('the month due is the one before', () => {
    expect(previousMonth(new Date('2027-01-02T06:07:00Z'))).toBe('2026-12');
    expect(previousMonth(new Date('2026-11-30T23:59:59Z'))).toBe('2026-10');
  });
});
