import { monthOf, type ReportingItem } from '../../domain/reporting/items';
import { isReportable } from '../../domain/reporting/items';
import { PEPPOL_AS4 } from '../../domain/peppol/capabilities';
import type { Identifier } from '../../domain/peppol/smp';
import type { Store } from '../../store';
import { isDuplicateKey } from '../../store/errors';
import { insertRow } from '../../store/insert';
import type { ReportingItemRow } from '../../store/reporting';

/**
 * Recording Peppol transactions for the monthly reports (TSR, EUSR): one
 * item per AS4 message and direction, under the key `<direction>:<AS4
 * message id>`, so a retried activity or a repeated message is counted once.
 *
 * Who calls it: the live delivery once the receipt came (our invoices and
 * credit notes), the receive workflow for every message that came by Peppol
 * (never the sandbox), and whoever sends or receives other Peppol documents
 * (Invoice Responses, MLS): call `recordReportingItem` with the AS4 message
 * id once the message went (receipt) or arrived (stored). The reports
 * themselves are never recorded.
 */

export interface Transaction extends Omit<ReportingItem, 'transportProtocol'> {
  /** The AS4 message id (`eb:MessageId`). */
  as4MessageId: string;
  /** Always Peppol AS4 2.0 today. */
  transportProtocol?: string;
}

/** Records one transaction (once); false when it was recorded before, or is a report (never counted). */
export async function recordReportingItem(store: Store, transaction: Transaction): Promise<boolean> {
  if (!isReportable(transaction.documentType)) return false;
  const row: ReportingItemRow & { _id: string } = {
    _id: `${transaction.direction}:${transaction.as4MessageId}`,
    month: monthOf(transaction.exchangedAt),
    exchanged_at: transaction.exchangedAt,
    direction: transaction.direction,
    as4_message_id: transaction.as4MessageId,
    // Columns are bounded as the specification's item is (seat ids 64, end user ids 256).
    c2_id: transaction.c2Id.slice(0, 64),
    c3_id: transaction.c3Id.slice(0, 64),
    document_type_scheme: transaction.documentType.scheme,
    document_type_value: transaction.documentType.value,
    process_scheme: transaction.process.scheme,
    process_value: transaction.process.value,
    transport_protocol: transaction.transportProtocol ?? PEPPOL_AS4,
    c1_country: transaction.c1Country,
    c4_country: transaction.c4Country,
    end_user_id: transaction.endUserId.slice(0, 256),
    created_at: new Date(),
  };
  try {
    await insertRow(store.reportingItems, row);
    return true;
  } catch (err) {
    if (isDuplicateKey(err)) return false;
    throw err;
  }
}

const itemOf = (row: ReportingItemRow): ReportingItem => ({
  exchangedAt: row.exchanged_at,
  direction: row.direction,
  c2Id: row.c2_id,
  c3Id: row.c3_id,
  documentType: { scheme: row.document_type_scheme, value: row.document_type_value },
  process: { scheme: row.process_scheme, value: row.process_value },
  transportProtocol: row.transport_protocol,
  c1Country: row.c1_country,
  c4Country: row.c4_country ?? null,
  endUserId: row.end_user_id,
});

/** Every item of the month, in key order, read by a cursor. */
export async function* itemsOfMonth(store: Store, month: string): AsyncGenerator<ReportingItem> {
  for await (const row of store.reportingItems.find({ month }).sort({ _id: 1 }).lean().cursor()) yield itemOf(row);
}

/** `scheme::value` as the envelope carries ids, split at the first `::`. */
function identifierOf(full: string): Identifier | undefined {
  const at = full.indexOf('::');
  return at > 0 ? { scheme: full.slice(0, at), value: full.slice(at + 2) } : undefined;
}

/** When the C1 country is unknown, the specification's replacement code. */
const UNKNOWN_COUNTRY = 'ZZ';

/**
 * Records a message the receive workflow filed, when it came by Peppol: C2 is the sending access point's seat,
 * C3 ours, C4's country our company's. Sandbox messages are never counted.
 */
export async function recordReceivedTransaction(
  store: Store,
  ourSeat: () => Promise<string>,
  documentId: string,
): Promise<boolean> {
  const message = await store.receivedMessages
    .findById(documentId, {
      source: 1,
      environment: 1,
      message_id: 1,
      company_id: 1,
      access_point: 1,
      document_type_id: 1,
      process_id: 1,
      country_c1: 1,
      received_at: 1,
    })
    .lean();
  if (!message || message.source !== 'peppol') return false;
  const documentType = message.document_type_id ? identifierOf(message.document_type_id) : undefined;
  const process = message.process_id ? identifierOf(message.process_id) : undefined;
  // The access point refuses a message without them; one stored without them cannot be reported.
  if (!documentType || !process) return false;
  const company = await store.companies.findById(message.company_id, { country: 1 }).lean();
  return recordReportingItem(store, {
    as4MessageId: message.message_id,
    direction: 'receiving',
    exchangedAt: message.received_at,
    c2Id: message.access_point ?? 'unknown',
    c3Id: await ourSeat(),
    documentType,
    process,
    c1Country: message.country_c1 ?? UNKNOWN_COUNTRY,
    c4Country: company?.country ?? UNKNOWN_COUNTRY,
    endUserId: message.company_id,
  });
}
