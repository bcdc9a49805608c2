import { endUserStatistics, endUserStatisticsReportXml, type EndUserStatistics } from '../../domain/reporting/eusr';
import { monthPeriod } from '../../domain/reporting/months';
import {
  transactionStatistics,
  transactionStatisticsReportXml,
  type TransactionStatistics,
} from '../../domain/reporting/tsr';
import { splitFindings, type OfficialFinding, type OfficialValidator } from '../../platform/official-validator';
import type { Store } from '../../store';
import { itemsOfMonth } from './items';

/**
 * A month's two Peppol reports, built from the recorded items and judged by
 * the official rules (the validator's TSR and EUSR rule sets). The XML is
 * written by domain/reporting/ with xmlbuilder2: peppol-reporting's Java
 * builders are not on the Maven repository this project builds from.
 */

interface ReportValidation {
  valid: boolean;
  rule_set: string;
  errors: OfficialFinding[];
}

export interface MonthReports {
  month: string;
  reporterSeat: string;
  tsr: { xml: string; statistics: TransactionStatistics; validation: ReportValidation };
  eusr: { xml: string; statistics: EndUserStatistics; validation: ReportValidation };
}

export interface ReportBuildDependencies {
  store: Store;
  validator: OfficialValidator;
  /** Our access point's seat id, the reports' ReporterID. */
  seat: () => Promise<string>;
}

async function judged(validator: OfficialValidator, xml: string, kind: 'tsr' | 'eusr'): Promise<ReportValidation> {
  const report = await validator.validate(xml);
  if (report.problem || report.document_type !== kind) {
    // Our own writer produced something the validator does not take for the report: a bug, not a finding.
    throw new Error(
      `the official validator did not read the ${kind.toUpperCase()} as one: ${report.problem?.message ?? report.document_type ?? ''}`,
    );
  }
  return { valid: report.valid, rule_set: report.rule_set, errors: splitFindings(report.findings).fatal };
}

export async function buildMonthReports(deps: ReportBuildDependencies, month: string): Promise<MonthReports> {
  monthPeriod(month);
  const reporterSeat = await deps.seat();
  const items = [];
  for await (const item of itemsOfMonth(deps.store, month)) items.push(item);
  const tsrStatistics = transactionStatistics(items);
  const eusrStatistics = endUserStatistics(items);
  const tsrXml = transactionStatisticsReportXml(month, reporterSeat, tsrStatistics);
  const eusrXml = endUserStatisticsReportXml(month, reporterSeat, eusrStatistics);
  const [tsrValidation, eusrValidation] = await Promise.all([
    judged(deps.validator, tsrXml, 'tsr'),
    judged(deps.validator, eusrXml, 'eusr'),
  ]);
  return {
    month,
    reporterSeat,
    tsr: { xml: tsrXml, statistics: tsrStatistics, validation: tsrValidation },
    eusr: { xml: eusrXml, statistics: eusrStatistics, validation: eusrValidation },
  };
}

const short = (value: string) => (value.length > 90 ? `…${value.slice(-89)}` : value);

/** The reports' numbers for a person: totals, then each subtotal or subset with its keys. */
export function reportSummary(month: string, tsr: TransactionStatistics, eusr: EndUserStatistics): string {
  const lines = [
    `Peppol reporting for ${month}`,
    `Transaction Statistics Report: ${tsr.total.incoming} incoming, ${tsr.total.outgoing} outgoing`,
    ...tsr.subtotals.map(
      (subtotal) =>
        `  ${subtotal.type.padEnd(15)} ${subtotal.keys.map((key) => short(key.value)).join(' | ')}: in ${subtotal.incoming}, out ${subtotal.outgoing}`,
    ),
    `End User Statistics Report: ${eusr.fullSet.sending} sending, ${eusr.fullSet.receiving} receiving, ${eusr.fullSet.sendingOrReceiving} sending or receiving end users`,
    ...eusr.subsets.map(
      (subset) =>
        `  ${subset.type.padEnd(15)} ${subset.keys.map((key) => short(key.value)).join(' | ')}: sending ${subset.sending}, receiving ${subset.receiving}, either ${subset.sendingOrReceiving}`,
    ),
  ];
  return lines.join('\n');
}

/** The official verdict of both reports, one line each, with every fatal finding. */
export function validationSummary(reports: Pick<MonthReports, 'tsr' | 'eusr'>): string {
  return (['tsr', 'eusr'] as const)
    .map((kind) => {
      const { valid, rule_set, errors } = reports[kind].validation;
      const findings = errors
        .map((finding) => `\n  [${finding.rule}] ${finding.message} (at ${finding.location})`)
        .join('');
      return `${kind.toUpperCase()} ${valid ? 'valid' : 'INVALID'} under ${rule_set}${findings}`;
    })
    .join('\n');
}
