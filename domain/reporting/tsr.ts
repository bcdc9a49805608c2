import { create } from 'xmlbuilder2';

import { isReportable, otherServiceProvider, type ReportingItem } from './items';
import { monthPeriod } from './months';

/**
 * The Transaction Statistics Report (Peppol TSR 1.0,
 * https://docs.peppol.eu/edelivery/specs/reporting/tsr/bis): how many
 * messages went in and out in one month, in total and per transport
 * profile, per other service provider, document type and process, and, for
 * incoming messages only, also per sender and receiver country (the sender
 * never knows C4's country, and SCH-TSR-43 asks those subtotals to count
 * no outgoing message).
 */

export const TSR_NAMESPACE = 'urn:fdc:peppol:transaction-statistics-report:1.0';
const TSR_CUSTOMIZATION = 'urn:fdc:peppol.eu:edec:trns:transaction-statistics-reporting:1.0';
export const REPORTING_PROFILE = 'urn:fdc:peppol.eu:edec:bis:reporting:1.0';

/** The scheme each key's metaSchemeID takes a value in. */
type KeyName = 'TP' | 'SP' | 'DT' | 'PR' | 'CC';
interface SubtotalKey {
  metaSchemeID: KeyName;
  schemeID: string;
  value: string;
}

interface Counts {
  incoming: number;
  outgoing: number;
}

type SubtotalType = 'PerTP' | 'PerSP-DT-PR' | 'PerSP-DT-PR-CC';
interface Subtotal extends Counts {
  type: SubtotalType;
  keys: SubtotalKey[];
}

export interface TransactionStatistics {
  total: Counts;
  subtotals: Subtotal[];
}

function keysOf(type: SubtotalType, item: ReportingItem): SubtotalKey[] {
  if (type === 'PerTP') return [{ metaSchemeID: 'TP', schemeID: 'Peppol', value: item.transportProtocol }];
  const base: SubtotalKey[] = [
    { metaSchemeID: 'SP', schemeID: 'CertSubjectCN', value: otherServiceProvider(item) },
    { metaSchemeID: 'DT', schemeID: item.documentType.scheme, value: item.documentType.value },
    { metaSchemeID: 'PR', schemeID: item.process.scheme, value: item.process.value },
  ];
  if (type === 'PerSP-DT-PR') return base;
  return [
    ...base,
    { metaSchemeID: 'CC', schemeID: 'SenderCountry', value: item.c1Country },
    { metaSchemeID: 'CC', schemeID: 'ReceiverCountry', value: item.c4Country ?? '' },
  ];
}

const SUBTOTAL_TYPES: SubtotalType[] = ['PerTP', 'PerSP-DT-PR', 'PerSP-DT-PR-CC'];

/** Counts the month's items (reports are not counted); subtotals in a fixed order, so the same items give the same XML. */
export function transactionStatistics(items: Iterable<ReportingItem>): TransactionStatistics {
  const total: Counts = { incoming: 0, outgoing: 0 };
  const subtotals = new Map<string, Subtotal>();
  for (const item of items) {
    if (!isReportable(item.documentType)) continue;
    const incoming = item.direction === 'receiving';
    if (incoming) total.incoming += 1;
    else total.outgoing += 1;
    for (const type of SUBTOTAL_TYPES) {
      if (type === 'PerSP-DT-PR-CC' && !incoming) continue;
      const keys = keysOf(type, item);
      const id = JSON.stringify([type, keys]);
      const subtotal = subtotals.get(id) ?? { type, keys, incoming: 0, outgoing: 0 };
      if (incoming) subtotal.incoming += 1;
      else subtotal.outgoing += 1;
      subtotals.set(id, subtotal);
    }
  }
  const order = (subtotal: Subtotal) =>
    `${SUBTOTAL_TYPES.indexOf(subtotal.type)}\u0000${subtotal.keys.map((key) => key.value).join('\u0000')}`;
  return {
    total,
    subtotals: [...subtotals.values()].sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0)),
  };
}

/** The report's XML, with the reporting service provider's seat id (`PBE000001`) as ReporterID. */
export function transactionStatisticsReportXml(
  month: string,
  reporterSeat: string,
  statistics: TransactionStatistics,
): string {
  const period = monthPeriod(month);
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(TSR_NAMESPACE, 'TransactionStatisticsReport');
  root.ele('CustomizationID').txt(TSR_CUSTOMIZATION);
  root.ele('ProfileID').txt(REPORTING_PROFILE);
  const header = root.ele('Header');
  header.ele('ReportPeriod').ele('StartDate').txt(period.start).up().ele('EndDate').txt(period.end);
  header.ele('ReporterID', { schemeID: 'CertSubjectCN' }).txt(reporterSeat);
  root
    .ele('Total')
    .ele('Incoming')
    .txt(String(statistics.total.incoming))
    .up()
    .ele('Outgoing')
    .txt(String(statistics.total.outgoing));
  for (const subtotal of statistics.subtotals) {
    const element = root.ele('Subtotal', { type: subtotal.type });
    for (const key of subtotal.keys)
      element.ele('Key', { metaSchemeID: key.metaSchemeID, schemeID: key.schemeID }).txt(key.value);
    element.ele('Incoming').txt(String(subtotal.incoming)).up().ele('Outgoing').txt(String(subtotal.outgoing));
  }
  return root.end({ prettyPrint: true, wellFormed: true });
}
