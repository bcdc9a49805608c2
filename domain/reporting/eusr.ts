import { create } from 'xmlbuilder2';

import { countsForEndUsers, endUserCountry, type ReportingItem } from './items';
import { monthPeriod } from './months';
import { REPORTING_PROFILE } from './tsr';

/**
 * The End User Statistics Report (Peppol EUSR 1.1,
 * https://docs.peppol.eu/edelivery/specs/reporting/eusr/bis): how many
 * distinct end users sent, received, or did either in one month, in all and
 * per document type and process, per document type and end user country,
 * per all three, and per country. The end user's country is C1's when
 * sending and C4's when receiving; reports and MLS messages are not counted.
 */

export const EUSR_NAMESPACE = 'urn:fdc:peppol:end-user-statistics-report:1.1';
const EUSR_CUSTOMIZATION = 'urn:fdc:peppol.eu:edec:trns:end-user-statistics-report:1.1';

interface EndUserCounts {
  sending: number;
  receiving: number;
  sendingOrReceiving: number;
}

type KeyName = 'DT' | 'PR' | 'CC';
type SubsetType = 'PerDT-PR' | 'PerDT-EUC' | 'PerDT-PR-EUC' | 'PerEUC';
interface Subset extends EndUserCounts {
  type: SubsetType;
  keys: { metaSchemeID: KeyName; schemeID: string; value: string }[];
}

export interface EndUserStatistics {
  fullSet: EndUserCounts;
  subsets: Subset[];
}

const SUBSET_TYPES: SubsetType[] = ['PerDT-PR', 'PerDT-EUC', 'PerDT-PR-EUC', 'PerEUC'];

function keysOf(type: SubsetType, item: ReportingItem): Subset['keys'] {
  const documentType = {
    metaSchemeID: 'DT' as const,
    schemeID: item.documentType.scheme,
    value: item.documentType.value,
  };
  const process = { metaSchemeID: 'PR' as const, schemeID: item.process.scheme, value: item.process.value };
  const country = { metaSchemeID: 'CC' as const, schemeID: 'EndUserCountry', value: endUserCountry(item) };
  if (type === 'PerDT-PR') return [documentType, process];
  if (type === 'PerDT-EUC') return [documentType, country];
  if (type === 'PerDT-PR-EUC') return [documentType, process, country];
  return [country];
}

/** Distinct end users, sending and receiving apart. */
class EndUsers {
  readonly sending = new Set<string>();
  readonly receiving = new Set<string>();

  add(item: ReportingItem): void {
    (item.direction === 'sending' ? this.sending : this.receiving).add(item.endUserId);
  }

  counts(): EndUserCounts {
    return {
      sending: this.sending.size,
      receiving: this.receiving.size,
      sendingOrReceiving: new Set([...this.sending, ...this.receiving]).size,
    };
  }
}

/** Counts the month's distinct end users; subsets in a fixed order, so the same items give the same XML. */
export function endUserStatistics(items: Iterable<ReportingItem>): EndUserStatistics {
  const all = new EndUsers();
  const subsets = new Map<string, { type: SubsetType; keys: Subset['keys']; users: EndUsers }>();
  for (const item of items) {
    if (!countsForEndUsers(item)) continue;
    all.add(item);
    for (const type of SUBSET_TYPES) {
      const keys = keysOf(type, item);
      const id = JSON.stringify([type, keys]);
      const subset = subsets.get(id) ?? { type, keys, users: new EndUsers() };
      subset.users.add(item);
      subsets.set(id, subset);
    }
  }
  const order = (subset: { type: SubsetType; keys: Subset['keys'] }) =>
    `${SUBSET_TYPES.indexOf(subset.type)}\u0000${subset.keys.map((key) => key.value).join('\u0000')}`;
  return {
    fullSet: all.counts(),
    subsets: [...subsets.values()]
      .sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0))
      .map(({ type, keys, users }) => ({ type, keys, ...users.counts() })),
  };
}

const counts = (parent: ReturnType<typeof create>, { sending, receiving, sendingOrReceiving }: EndUserCounts) =>
  parent
    .ele('SendingEndUsers')
    .txt(String(sending))
    .up()
    .ele('ReceivingEndUsers')
    .txt(String(receiving))
    .up()
    .ele('SendingOrReceivingEndUsers')
    .txt(String(sendingOrReceiving))
    .up();

/** The report's XML, with the reporting service provider's seat id (`PBE000001`) as ReporterID. */
export function endUserStatisticsReportXml(month: string, reporterSeat: string, statistics: EndUserStatistics): string {
  const period = monthPeriod(month);
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(EUSR_NAMESPACE, 'EndUserStatisticsReport');
  root.ele('CustomizationID').txt(EUSR_CUSTOMIZATION);
  root.ele('ProfileID').txt(REPORTING_PROFILE);
  const header = root.ele('Header');
  header.ele('ReportPeriod').ele('StartDate').txt(period.start).up().ele('EndDate').txt(period.end);
  header.ele('ReporterID', { schemeID: 'CertSubjectCN' }).txt(reporterSeat);
  counts(root.ele('FullSet'), statistics.fullSet);
  for (const subset of statistics.subsets) {
    const element = root.ele('Subset', { type: subset.type });
    for (const key of subset.keys)
      element.ele('Key', { metaSchemeID: key.metaSchemeID, schemeID: key.schemeID }).txt(key.value);
    counts(element, subset);
  }
  return root.end({ prettyPrint: true, wellFormed: true });
}
