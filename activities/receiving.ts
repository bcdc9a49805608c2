import { ApplicationFailure, Context } from '@temporalio/activity';

import { reconcileReceived } from '../services/receiving/intake';
import {
  announceReceived,
  fileReceived,
  fileUnread,
  findReceivedMessage,
  markFiled,
  type Filed,
} from '../services/receiving/filing';
import { announceReply, type FiledReply } from '../services/receiving/replies';
import { recordReceivedTransaction } from '../services/reporting/items';
import {
  planReceiving,
  recordReceivingOutcome,
  registerParticipant,
  RegistrationRefusedError,
  unregisterParticipant,
  type ReceivingPlan,
} from '../services/receiving/registration';
import { recordListingFailure, syncListing, type ListingStatus } from '../services/receiving/business-card';
import { prepareOutgoingMigration, recordMigrationFailure } from '../services/receiving/migration';
import type { CompanyIdentity } from '../domain/kyc/participant-proof';
import { NetworkRegistrationError } from '../platform/peppol/network-registration';
import {
  openParticipantReview,
  recordParticipantDecision,
  type ParticipantDecisionOutcome,
} from '../services/receiving/participant-review';
import { REGISTRATION_REFUSED, type KycDecision } from '../workflows/shared';
import type { ActivityDependencies } from './dependencies';

/** A refusal no retry mends ends the step at once; anything else is retried by the workflow's policy. */
async function refusalsFinal<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof RegistrationRefusedError || (err instanceof NetworkRegistrationError && err.permanent)) {
      throw ApplicationFailure.nonRetryable(err.message, REGISTRATION_REFUSED);
    }
    throw err;
  }
}

/** The receive workflow's side effects: filing a received message and announcing it; each safe to repeat. */
export function receivedDocumentActivities(
  deps: Pick<ActivityDependencies, 'store' | 'logger' | 'validator' | 'usage' | 'temporal' | 'fanOut' | 'peppol'>,
) {
  const { store, logger } = deps;
  return {
    /** Validates, converts and stores a received message as a document (once). */
    async fileReceivedDocument(documentId: string): Promise<Filed> {
      const filed = await fileReceived(deps, documentId);
      // Counted for Peppol reporting (Peppol messages only) once filed; a retry finds it counted.
      await recordReceivedTransaction(store, () => deps.peppol.accessPoint.seat(), documentId);
      await markFiled(store, documentId, filed);
      return filed;
    },

    /** The last resort: filed unread with why as its finding, when filing kept failing (once). */
    async fileUnreadDocument(documentId: string, why: string): Promise<Filed> {
      const filed = await fileUnread(store, documentId, why);
      await recordReceivedTransaction(store, () => deps.peppol.accessPoint.seat(), documentId);
      await markFiled(store, documentId, filed);
      return filed;
    },

    /** Its `document.received` event, webhooks and usage count (once). */
    async announceReceivedDocument(documentId: string): Promise<void> {
      await announceReceived({ store, fanOut: deps.fanOut, usage: deps.usage, logger }, documentId);
    },

    /** A reply's `document.response_received` or `document.mls_received` event and webhooks (once). */
    async announceReceivedReply(documentId: string, reply: FiledReply): Promise<void> {
      const message = await findReceivedMessage(store, documentId);
      if (!message) throw new Error(`no received message ${documentId}`);
      await announceReply({ store, fanOut: deps.fanOut, logger }, message, reply);
    },

    /** Starts the receive workflow of every stored message the intake could not. */
    async startMissingReceiveWorkflows(): Promise<number> {
      return reconcileReceived({ store, temporal: deps.temporal, logger });
    },
  };
}

/** The registration workflows' side effects: a company's receiving on the network and in the Directory; each safe to repeat. */
export function registrationActivities(
  deps: Pick<ActivityDependencies, 'store' | 'logger' | 'secretBox' | 'sml' | 'directory'>,
) {
  const { store, logger } = deps;
  return {
    async planReceiving(companyId: string): Promise<ReceivingPlan> {
      return planReceiving(store, companyId);
    },

    /** Opens the operator's review of a participant id no proof covers; false when the company changed meanwhile. */
    async openParticipantReview(companyId: string, identity: CompanyIdentity, why: string): Promise<boolean> {
      return openParticipantReview(store, companyId, identity, why);
    },

    async recordParticipantDecision(
      companyId: string,
      identity: CompanyIdentity,
      decision: KycDecision,
    ): Promise<ParticipantDecisionOutcome> {
      return recordParticipantDecision(store, companyId, identity, decision);
    },

    async registerReceiver(companyId: string, participant: string): Promise<void> {
      await refusalsFinal(() =>
        registerParticipant({ store, sml: deps.sml, secretBox: deps.secretBox, logger }, companyId, participant),
      );
    },

    /** Our service provider participant (Message Level Status) in the SML; a refusal is final. */
    async registerServiceProvider(participant: string): Promise<void> {
      await refusalsFinal(() => deps.sml.register(participant));
      logger.info({ participant }, 'our service provider participant is registered in the SML (Message Level Status)');
    },

    async unregisterReceiver(companyId: string, participant: string): Promise<void> {
      await refusalsFinal(() =>
        unregisterParticipant({ store, sml: deps.sml, secretBox: deps.secretBox, logger }, companyId, participant),
      );
    },

    /** The participant's Peppol Directory listing brought in line (its business card read, or dropped); a refusal is final. */
    async syncBusinessCard(companyId: string, participant: string): Promise<ListingStatus> {
      return refusalsFinal(() => syncListing({ store, directory: deps.directory, logger }, companyId, participant));
    },

    async recordBusinessCardFailure(companyId: string, participant: string, reason: string): Promise<void> {
      await recordListingFailure(store, companyId, participant, reason);
    },

    /** The migration key the company asked for, given to the SML (PrepareToMigrate); a refusal is recorded on the company. */
    async prepareMigration(companyId: string): Promise<'prepared' | 'failed' | 'nothing'> {
      return prepareOutgoingMigration({ store, sml: deps.sml, secretBox: deps.secretBox, logger }, companyId);
    },

    async recordMigrationFailure(companyId: string, reason: string): Promise<void> {
      await recordMigrationFailure(store, companyId, reason);
    },

    /** `step` names the workflow step, so a retry records the outcome's event once. */
    async recordReceivingOutcome(
      companyId: string,
      outcome: Parameters<typeof recordReceivingOutcome>[2],
      step: number,
    ): Promise<void> {
      const { workflowExecution } = Context.current().info;
      await recordReceivingOutcome(
        store,
        companyId,
        outcome,
        `${workflowExecution?.runId ?? companyId}:${step}`,
        logger,
      );
    },
  };
}
