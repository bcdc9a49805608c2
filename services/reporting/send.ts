import { END_USER_STATISTICS_REPORT, TRANSACTION_STATISTICS_REPORT } from '../../domain/peppol/capabilities';
import { serviceProviderId } from '../../domain/peppol/ids';
import { nameBasedUuid, standardBusinessDocument } from '../../domain/peppol/envelope';
import { fullIdentifier } from '../../domain/peppol/smp';
import { monthPeriod } from '../../domain/reporting/months';
import { EUSR_NAMESPACE } from '../../domain/reporting/eusr';
import { TSR_NAMESPACE } from '../../domain/reporting/tsr';
import type { Logger } from '../../platform/logger';
import type { PeppolAccessPoint } from '../../platform/peppol/access-point';
import { receivingEndpoint, type PeppolLookup } from '../../platform/peppol/lookup';
import { isDuplicateKey } from '../../store/errors';
import { insertRow } from '../../store/insert';
import type { ReportingMonthRow } from '../../store/reporting';
import { SPID_SCHEME } from '../../domain/ubl/application-response';
import { buildMonthReports, reportSummary, validationSummary, type ReportBuildDependencies } from './reports';

/**
 * Sending a month's reports to the reporting receiver (OpenPeppol) by AS4,
 * never twice: the month is claimed first by a unique insert
 * (`peppol_reporting_months`, id = the month) that keeps the reports' bytes,
 * then each report is sent under an AS4 message id the month fixes and
 * marked sent. A retry by the same claimant sends what is left, the same
 * bytes under the same ids (a receiver that got one keeps one copy); any
 * other claimant is told the month is sent, or being sent, already.
 */

export interface ReportingSettings {
  /** The reporting receiver's participant id (PEPPOL_REPORTING_RECEIVER). */
  receiver: string;
  /** Our participant id as the reports' sender (PEPPOL_REPORTING_SENDER); default `0242:` and our seat's number (SPIS). */
  sender?: string;
  /** The country of C1, our own (PEPPOL_REPORTING_COUNTRY); default the country in our seat id (`PBE000001`: BE). */
  country?: string;
}

export interface ReportingSendDependencies extends ReportBuildDependencies {
  lookup: PeppolLookup;
  accessPoint: PeppolAccessPoint;
  settings: ReportingSettings;
  logger: Logger;
}

/** The month's reports cannot be sent as they are (invalid, no receiver for them, claimed by another sender): no retry mends it. */
export class ReportingRefusedError extends Error {
  override name = 'ReportingRefusedError';
}

export type Claimant = 'schedule' | 'ops';

export interface ReportingOutcome {
  month: string;
  /** `sent` now (this run sent what was left), or `already_sent` before by anyone. */
  status: 'sent' | 'already_sent';
  claimedBy: string;
  receiver: string;
  tsrSentAt: string;
  eusrSentAt: string;
  summary: string;
}

const REPORTS = {
  tsr: {
    service: TRANSACTION_STATISTICS_REPORT,
    root: { namespace: TSR_NAMESPACE, name: 'TransactionStatisticsReport' },
  },
  eusr: { service: END_USER_STATISTICS_REPORT, root: { namespace: EUSR_NAMESPACE, name: 'EndUserStatisticsReport' } },
} as const;

/** One AS4 message id per month and report, whoever sends it and however often. */
const reportMessageId = (month: string, kind: keyof typeof REPORTS) => `peppol-reporting-${month}-${kind}@einvoice`;

/** The reports' sender: the configured participant, else our service provider id by the Peppol SPIS (`0242:` + the seat's number). */
const senderOf = (settings: ReportingSettings, seat: string) =>
  settings.sender ?? `${SPID_SCHEME}:${serviceProviderId(seat) ?? seat}`;
const countryOf = (settings: ReportingSettings, seat: string) => settings.country ?? seat.slice(1, 3);

type MonthRow = ReportingMonthRow & { _id: string };

const outcomeOf = (row: MonthRow, status: ReportingOutcome['status']): ReportingOutcome => ({
  month: row._id,
  status,
  claimedBy: row.claimed_by,
  receiver: row.receiver_id,
  tsrSentAt: row.tsr_sent_at!.toISOString(),
  eusrSentAt: row.eusr_sent_at!.toISOString(),
  summary: row.summary,
});

/** Claims the month with its reports built and valid now, or finds the claim made before. */
async function claim(deps: ReportingSendDependencies, month: string, claimant: Claimant): Promise<MonthRow> {
  const existing = await deps.store.reportingMonths.findById(month).lean();
  if (existing) return existing;
  const reports = await buildMonthReports(deps, month);
  if (!reports.tsr.validation.valid || !reports.eusr.validation.valid) {
    throw new ReportingRefusedError(
      `the reports for ${month} are not valid under the official rules:\n${validationSummary(reports)}`,
    );
  }
  const row: MonthRow = {
    _id: month,
    claimed_by: claimant,
    reporter_seat: reports.reporterSeat,
    receiver_id: deps.settings.receiver,
    tsr_xml: reports.tsr.xml,
    eusr_xml: reports.eusr.xml,
    summary: reportSummary(month, reports.tsr.statistics, reports.eusr.statistics),
    tsr_sent_at: null,
    eusr_sent_at: null,
    created_at: new Date(),
  };
  try {
    await insertRow(deps.store.reportingMonths, row);
    return row;
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    // Another sender claimed it in between: its claim stands.
    return (await deps.store.reportingMonths.findById(month).lean()) as MonthRow;
  }
}

async function sendReport(
  deps: ReportingSendDependencies,
  row: MonthRow,
  kind: keyof typeof REPORTS,
  cancelled?: AbortSignal,
): Promise<void> {
  const report = REPORTS[kind];
  const endpoint = await receivingEndpoint(deps.lookup, row.receiver_id, report.service, new Date());
  if ('refusal' in endpoint)
    throw new ReportingRefusedError(
      `the reporting receiver cannot take the ${kind.toUpperCase()}: ${endpoint.refusal}`,
    );
  const routing = {
    root: report.root,
    documentType: report.service.documentType,
    process: report.service.process,
    sender: senderOf(deps.settings, row.reporter_seat),
    receiver: row.receiver_id,
    countryC1: countryOf(deps.settings, row.reporter_seat),
  };
  const xml = kind === 'tsr' ? row.tsr_xml : row.eusr_xml;
  const messageId = reportMessageId(row._id, kind);
  const receipt = await deps.accessPoint.send(
    {
      messageId,
      senderId: routing.sender,
      receiverId: routing.receiver,
      documentTypeId: fullIdentifier(routing.documentType),
      processId: fullIdentifier(routing.process),
      countryC1: routing.countryC1,
      endpointUrl: endpoint.url,
      receiverCertificate: endpoint.certificate,
      // The same envelope on every attempt: its id and time come from the claim.
      sbd: standardBusinessDocument(xml, routing, { instanceId: nameBasedUuid(messageId), createdAt: row.created_at }),
    },
    cancelled,
  );
  await deps.store.reportingMonths.updateOne(
    { _id: row._id, [`${kind}_sent_at`]: null },
    { $set: { [`${kind}_sent_at`]: new Date() } },
  );
  deps.logger.info(
    { month: row._id, kind, messageId, receipt: receipt.receiptMessageId, receiver: row.receiver_id },
    'Peppol report sent',
  );
}

/** Sends the month's TSR and EUSR once; see the file's comment. */
export async function sendMonthReports(
  deps: ReportingSendDependencies,
  month: string,
  claimant: Claimant,
  cancelled?: AbortSignal,
): Promise<ReportingOutcome> {
  // A report covers a whole calendar month, and is sent once: never before the month is over.
  if (monthPeriod(month).until.getTime() > Date.now())
    throw new ReportingRefusedError(`${month} has not ended yet; its reports are sent from the 1st of the next month`);
  let row = await claim(deps, month, claimant);
  // Sent before (by anyone, this claimant's earlier attempt included): said so, nothing sent again.
  if (row.tsr_sent_at && row.eusr_sent_at) return outcomeOf(row, 'already_sent');
  if (row.claimed_by !== claimant) {
    throw new ReportingRefusedError(
      `the reports for ${month} are being sent by ${row.claimed_by} since ${row.created_at.toISOString()}; they are sent once`,
    );
  }
  for (const kind of ['tsr', 'eusr'] as const) {
    if (!row[`${kind}_sent_at`]) await sendReport(deps, row, kind, cancelled);
  }
  row = (await deps.store.reportingMonths.findById(month).lean()) as MonthRow;
  return outcomeOf(row, 'sent');
}
