import { fullIdentifier } from '../../domain/peppol/smp';
import { MESSAGE_LEVEL_STATUS } from '../../domain/peppol/capabilities';
import { sbdPayload } from '../../domain/peppol/received-payload';
import { readApplicationResponse } from '../../domain/ubl/application-response';
import type { Store } from '../../store';

/**
 * Our service provider as a Peppol participant, `0242:<SPID>` (SPID from our
 * access point's seat): Message Level Status goes to the sending service
 * provider, not to the business that sent the document (MLS 1.0;
 * receiving.md 4.4), so this participant, and no company, is registered for
 * the MLS document type in our SMP and the SML.
 */

const MLS_DOCUMENT_TYPE = fullIdentifier(MESSAGE_LEVEL_STATUS.documentType);

/**
 * Whom an MLS that names none of our sent documents is filed under: it is
 * stored and kept (its AS4 receipt went out), for the operator
 * (`ops mls unmatched`), since no company can be told.
 */
export const UNMATCHED_MLS_OWNER = {
  companyId: 'system:service-provider',
  workspaceId: 'system:service-provider',
} as const;

const sameParticipant = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The company an inbound MLS is for: the one whose sent document's SBDH
 * InstanceIdentifier the MLS references (its DocumentReference ID), or the
 * unmatched owner; undefined when the message is not an MLS for us.
 */
export async function mlsRecipient(
  store: Store,
  serviceProvider: string | undefined,
  message: { receiverId: string; documentTypeId: string; sbd: Buffer },
): Promise<{ companyId: string; workspaceId: string } | undefined> {
  if (
    !serviceProvider ||
    !sameParticipant(message.receiverId, serviceProvider) ||
    message.documentTypeId !== MLS_DOCUMENT_TYPE
  )
    return undefined;
  const payload = sbdPayload(message.sbd);
  const read = payload && readApplicationResponse(payload.toString('utf8'));
  const document =
    read && 'kind' in read && read.kind === 'mls'
      ? await sentDocumentOfInstance(store, read.referencedInstanceId)
      : null;
  return document ? { companyId: document.company_id, workspaceId: document.workspace_id } : { ...UNMATCHED_MLS_OWNER };
}

/** The sent document whose envelope had this InstanceIdentifier, or null. */
export async function sentDocumentOfInstance(store: Store, instanceId: string) {
  return store.documents.findOne({ sbdh_instance_id: instanceId }).lean();
}

/** What our SMP publishes for the service provider participant (its value lower-cased), else undefined. */
export const serviceProviderDocumentTypes = (
  serviceProvider: string | undefined,
  participantValue: string,
): string[] | undefined =>
  serviceProvider && sameParticipant(serviceProvider, participantValue) ? [MLS_DOCUMENT_TYPE] : undefined;

/** The MLS kept under the service provider because they named none of our sent documents, newest first (for `ops mls unmatched`). */
export async function unmatchedMessageLevelStatuses(store: Store, limit = 50) {
  const rows = await store.receivedMessages
    .find({ company_id: UNMATCHED_MLS_OWNER.companyId })
    .sort({ _id: -1 })
    .limit(limit)
    .lean();
  return rows.map((row) => {
    const payload = sbdPayload(Buffer.from(row.payload.buffer));
    const read = payload && readApplicationResponse(payload.toString('utf8'));
    const mls = read && 'kind' in read && read.kind === 'mls' ? read : undefined;
    return {
      id: row._id,
      received_at: row.received_at.toISOString(),
      as4_message_id: row.message_id,
      from_access_point: row.access_point ?? null,
      code: mls?.code ?? null,
      referenced_instance_id: mls?.referencedInstanceId ?? null,
      description: mls?.description ?? null,
    };
  });
}
