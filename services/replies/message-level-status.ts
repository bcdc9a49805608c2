import {
  answersWithMls,
  mlsAddressee,
  mlsAskedIn,
  mlsCountryC1,
  mlsVerdict,
  type FatalFinding,
} from '../../domain/peppol/mls';
import { serviceProviderId } from '../../domain/peppol/ids';
import type { ReplyRef } from '../../domain/reply-events';
import { SPID_SCHEME, writeMessageLevelStatus } from '../../domain/ubl/application-response';
import type { Logger } from '../../platform/logger';
import type { Store } from '../../store';
import { isDuplicateKey } from '../../store/errors';
import { insertRow } from '../../store/insert';
import { findReceivedMessage } from '../receiving/filing';

/**
 * The Message Level Status our access point owes the sending one for a
 * received message (Peppol MLS 1.0, as receiver C3): planned once the
 * message is filed, from its SBDH (what the sender asked for and where to)
 * and the official validation of its business document, and stored
 * `queued` under the received document's id, so planning again finds it.
 * An MLS never answers an MLS, and the sandbox has no access points.
 */

export interface MlsPlanning {
  store: Store;
  logger: Logger;
  /** Our access point's seat id: our SPID names the status's sender. */
  ourSeat: () => Promise<string>;
}

export async function planMessageLevelStatus(deps: MlsPlanning, documentId: string): Promise<ReplyRef | null> {
  const { store, logger } = deps;
  const planned = await store.messageLevelStatuses.findById(documentId, { _id: 1 }).lean();
  if (planned) return { kind: 'mls', id: documentId };
  const message = await findReceivedMessage(store, documentId);
  if (!message || message.source !== 'peppol' || !answersWithMls(message.document_type_id ?? null)) return null;
  const asked = mlsAskedIn(message.payload);
  if (!asked) return null;
  const content = await store.contents.findById(documentId, { validation: 1 }).lean();
  const validation = (content?.validation ?? null) as { valid: boolean; errors: FatalFinding[] } | null;
  if (!validation) throw new Error(`received document ${documentId} is not filed`);
  const verdict = mlsVerdict(asked, validation);
  if (!verdict) return null;
  const receiverSpid = mlsAddressee(asked, message.access_point ?? null);
  const seat = await deps.ourSeat();
  const senderSpid = serviceProviderId(seat);
  if (!receiverSpid || !senderSpid) {
    logger.warn(
      { documentId, sendingSeat: message.access_point, ourSeat: seat },
      'no Message Level Status: a service provider id is unknown',
    );
    return null;
  }
  const countryC1 = mlsCountryC1(
    message.company_id,
    await store.companies.findById(message.company_id, { country: 1 }).lean(),
  );
  const now = new Date();
  const ubl = writeMessageLevelStatus({
    id: documentId,
    issuedAt: now,
    senderSpid,
    receiverSpid,
    referencedInstanceId: asked.instanceId,
    ...verdict,
  });
  try {
    await insertRow(store.messageLevelStatuses, {
      _id: documentId,
      company_id: message.company_id,
      workspace_id: message.workspace_id,
      environment: message.environment,
      code: verdict.code,
      sender_id: `${SPID_SCHEME}:${senderSpid}`,
      receiver_id: `${SPID_SCHEME}:${receiverSpid}`,
      referenced_instance_id: asked.instanceId,
      country_c1: countryC1,
      ubl,
      status: 'queued',
      as4_message_id: null,
      error_message: null,
      created_at: now,
      updated_at: now,
    });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
  return { kind: 'mls', id: documentId };
}
