import { createHash } from 'node:crypto';

import { WorkflowIdReusePolicy, type Client } from '@temporalio/client';

import type { Environment } from '../../domain/environment';
import { sbdPayload } from '../../domain/peppol/received-payload';
import { newSortableId, sortableIdBound } from '../../domain/ids';
import type { Logger } from '../../platform/logger';
import { startWorkflow } from '../../platform/workflow-port';
import type { Store } from '../../store';
import { isDuplicateKey } from '../../store/errors';
import { insertRow } from '../../store/insert';
import type { ReceivedMessageRow } from '../../store/receiving';
import { receiveWorkflowId, SEARCH_ATTRIBUTES } from '../../workflows/shared';

/**
 * Taking in a received message: it is stored first, and only then is the
 * sender told it arrived (the AS4 receipt, or the sandbox's 202), so a
 * message whose receipt went out is never lost. Its receive workflow is
 * started beside the answer, not before it (the receipt waits for the
 * journaled write only); when that start fails (Temporal down, a crash),
 * the row waits with `dispatched: false` and the reconciler starts it. A
 * repeated message (the same AS4 message id, sender, receiver and payload:
 * the sender did not get our receipt) finds the stored one and creates
 * nothing new; the same id with anything else is refused, unstored.
 */

export interface IntakeDependencies {
  store: Store;
  temporal: Client;
  logger: Logger;
}

export interface InboundMessage {
  source: 'peppol' | 'sandbox';
  messageId: string;
  /** Participant values (`0208:0123456749`). */
  senderId: string | null;
  receiverId: string;
  /** Full identifiers (`scheme::value`) from the envelope. */
  documentTypeId: string | null;
  processId: string | null;
  countryC1: string | null;
  /** The sending access point's seat id and certificate subject. */
  accessPoint: string | null;
  accessPointCertificate: string | null;
  /** The SBD (peppol) or the UBL (sandbox), byte for byte. */
  payload: Buffer;
  receivedAt: Date;
}

export interface Recipient {
  companyId: string;
  workspaceId: string;
  environment: Environment;
}

export interface Intake {
  documentId: string;
  /** False when the message had arrived before. */
  created: boolean;
}

/**
 * The digest a repeat is recognised by: of the business document a Peppol SBD carries (the same document sent
 * again in a new envelope, with a new envelope id and time, is the same message), else of the whole payload.
 */
const digestOf = (source: InboundMessage['source'], payload: Buffer) =>
  createHash('sha256')
    .update((source === 'peppol' && sbdPayload(payload)) || payload)
    .digest('hex');

/**
 * A message id used before for another message (another sender, receiver or payload): not a repeat, so it
 * gets no receipt (the sender would believe it delivered) and the first is left as it was.
 */
export class MessageIdReusedError extends Error {
  override name = 'MessageIdReusedError';
}

const messageKey = (source: InboundMessage['source'], messageId: string) =>
  `${source}:${createHash('sha256').update(messageId, 'utf8').digest('hex')}`;

/** Stores the message for its recipient (once per message id) and starts its receive workflow. */
export async function takeInbound(
  deps: IntakeDependencies,
  message: InboundMessage,
  recipient: Recipient,
): Promise<Intake> {
  const row: ReceivedMessageRow & { _id: string } = {
    _id: newSortableId('document', message.receivedAt.getTime()),
    message_key: messageKey(message.source, message.messageId),
    message_id: message.messageId,
    source: message.source,
    environment: recipient.environment,
    company_id: recipient.companyId,
    workspace_id: recipient.workspaceId,
    sender_id: message.senderId,
    receiver_id: message.receiverId,
    document_type_id: message.documentTypeId,
    process_id: message.processId,
    country_c1: message.countryC1,
    access_point: message.accessPoint,
    access_point_certificate: message.accessPointCertificate,
    payload: message.payload,
    payload_sha256: digestOf(message.source, message.payload),
    received_at: message.receivedAt,
    dispatched: false,
    filed: false,
  };
  try {
    // Journaled before the answer: the receipt promises the message is safe.
    await insertRow(deps.store.receivedMessages, row, { writeConcern: { w: 'majority', j: true } });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    const existing = await deps.store.receivedMessages.findOne({ message_key: row.message_key }).lean();
    if (!existing) throw err;
    const existingDigest = existing.payload_sha256 ?? digestOf(existing.source, Buffer.from(existing.payload.buffer));
    if (
      existing.sender_id !== row.sender_id ||
      existing.receiver_id !== row.receiver_id ||
      existingDigest !== row.payload_sha256
    ) {
      throw new MessageIdReusedError(
        `Message id ${message.messageId} was received before for a different message (another sender, receiver or payload); nothing was stored`,
      );
    }
    if (!existing.dispatched) await dispatchReceived(deps, existing);
    return { documentId: existing._id, created: false };
  }
  // Not awaited: the receipt waits for the store only; the workflow start follows it, and the reconciler covers a crash between.
  void dispatchReceived(deps, row).catch((err: unknown) =>
    deps.logger.error(
      { err, documentId: row._id },
      'could not start the receive workflow of a stored message; the reconciler will',
    ),
  );
  return { documentId: row._id, created: true };
}

/** Starts the message's receive workflow (at most one ever: the id is the document's and is never reused) and marks it dispatched. */
async function dispatchReceived(
  deps: IntakeDependencies,
  message: Pick<ReceivedMessageRow, 'company_id' | 'workspace_id' | 'environment'> & { _id: string },
): Promise<void> {
  await startWorkflow(deps.temporal, 'receiveDocumentWorkflow', {
    workflowId: receiveWorkflowId(message._id),
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    input: { documentId: message._id },
    typedSearchAttributes: [
      { key: SEARCH_ATTRIBUTES.documentId, value: message._id },
      { key: SEARCH_ATTRIBUTES.companyId, value: message.company_id },
      { key: SEARCH_ATTRIBUTES.workspaceId, value: message.workspace_id },
      { key: SEARCH_ATTRIBUTES.environment, value: message.environment },
    ],
    staticSummary: `Received document ${message._id} for ${message.company_id} (${message.environment})`,
  });
  await deps.store.receivedMessages.updateOne({ _id: message._id, dispatched: false }, { $set: { dispatched: true } });
}

/** A message stored less than this long ago may still be having its workflow started by the intake. */
const INTAKE_GRACE_MS = 30_000;

/** The reconciler's pass: starts the receive workflow of every stored message the intake could not, oldest first. */
export async function reconcileReceived(
  deps: IntakeDependencies,
  options: { now?: number; batch?: number } = {},
): Promise<number> {
  const cutoff = sortableIdBound('document', (options.now ?? Date.now()) - INTAKE_GRACE_MS);
  const due = await deps.store.receivedMessages
    .find({ dispatched: false, _id: { $lt: cutoff } }, { payload: 0 })
    .sort({ _id: 1 })
    .limit(options.batch ?? 200)
    .lean();
  for (const message of due) {
    await dispatchReceived(deps, message);
    deps.logger.warn({ documentId: message._id }, 'started a receive workflow the intake could not start');
  }
  return due.length;
}
