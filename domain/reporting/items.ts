import {
  END_USER_STATISTICS_REPORT,
  MESSAGE_LEVEL_STATUS,
  TRANSACTION_STATISTICS_REPORT,
} from '../peppol/capabilities';
import type { Identifier } from '../peppol/smp';

/**
 * One Peppol transaction as the Peppol Reporting specifications count it
 * (Transaction Statistics Reporting 1.0, End User Statistics Reporting 1.1;
 * the fields of peppol-reporting's PeppolReportingItem): one AS4 message in
 * one direction, sent by C2 and received by C3.
 */
export interface ReportingItem {
  /** When the message was exchanged (UTC): the receipt's time when sending, the arrival when receiving. */
  exchangedAt: Date;
  direction: 'sending' | 'receiving';
  /** Seat ids (certificate CN, e.g. `PBE000001`) of the sending (C2) and receiving (C3) access points. */
  c2Id: string;
  c3Id: string;
  documentType: Identifier;
  process: Identifier;
  transportProtocol: string;
  /** The sender's (C1) country; the end user's when sending. */
  c1Country: string;
  /** The receiver's (C4) country: required when receiving (our company's), unknown to a sender. */
  c4Country: string | null;
  /** Our end user (company id): only counted as distinct, never reported. */
  endUserId: string;
}

/** The reports themselves are never counted (TSR 1.0 and EUSR 1.1, 2.2.1). */
const isReport = (documentType: Identifier) =>
  [TRANSACTION_STATISTICS_REPORT, END_USER_STATISTICS_REPORT].some(
    (report) => report.documentType.value === documentType.value,
  );

/** Whether a message of this document type is recorded at all: the reports are not. */
export const isReportable = (documentType: Identifier): boolean => !isReport(documentType);

/** Whether an item counts for the End User Statistics Report: neither a report nor an MLS (the MLS operational guideline). */
export const countsForEndUsers = (item: Pick<ReportingItem, 'documentType'>): boolean =>
  isReportable(item.documentType) && item.documentType.value !== MESSAGE_LEVEL_STATUS.documentType.value;

/** The end user's country: C1's when sending, C4's when receiving. */
export const endUserCountry = (item: ReportingItem): string =>
  item.direction === 'sending' ? item.c1Country : (item.c4Country ?? item.c1Country);

/** The other service provider of a transaction: C3 when we send, C2 when we receive. */
export const otherServiceProvider = (item: ReportingItem): string =>
  item.direction === 'sending' ? item.c3Id : item.c2Id;

/** The month an exchange counts for. */
export const monthOf = (exchangedAt: Date): string => exchangedAt.toISOString().slice(0, 7);
