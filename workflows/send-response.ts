import { defineUpdate, proxyLocalActivities, setCurrentDetails, setHandler } from '@temporalio/workflow';

import type { Activities } from '../activities';
import { deliverReply } from './replies';
import { GIVE_UPDATE, type SendResponseInput } from './shared';

/**
 * One Invoice Response our company gives, one workflow (id
 * `response-<response id>`), started by the request that gives it
 * (Update-with-Start) or by the receive workflow (an acknowledgement):
 *
 *   (drafted) ──claim──▶ queued → sent | failed   the steps a document send has (workflows/replies.ts)
 *       └──(another response was given first)──▶ not given: the workflow ends
 *
 * The `give` update answers the request with the claim. Ids travel through history, never the UBL.
 */

/** Answered with the claim (services/replies/invoice-responses.ts, ResponseClaim). */
const giveUpdate = defineUpdate<Awaited<ReturnType<Activities['claimInvoiceResponse']>>>(GIVE_UPDATE);

const { claimInvoiceResponse } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

export async function sendResponseWorkflow({
  responseId,
  previousResponseId,
  deliveryWindowSeconds,
}: SendResponseInput): Promise<'sent' | 'failed' | 'not given'> {
  // Registered before anything awaits, so the update sent with the start finds it.
  const claiming = claimInvoiceResponse(responseId, previousResponseId);
  setHandler(giveUpdate, () => claiming);
  const claim = await claiming;
  if (!claim.given) {
    setCurrentDetails(`Not given: ${claim.refusal.message}`);
    return 'not given';
  }
  setCurrentDetails('Validating with the official rules and sending the Invoice Response');
  const outcome = await deliverReply({ kind: 'invoice_response', id: responseId }, deliveryWindowSeconds);
  setCurrentDetails(outcome.status === 'sent' ? outcome.description : `Failed: ${outcome.error}`);
  return outcome.status;
}
