import { setCurrentDetails } from '@temporalio/workflow';

import { deliverReply } from './replies';
import type { SendResponseInput } from './shared';

/**
 * One Invoice Response our company gives, one workflow (id
 * `response-<response id>`): queued → sent | failed, like a document send
 * (workflows/replies.ts has the steps). Ids travel through history, never the UBL.
 */
export async function sendResponseWorkflow({ responseId, deliveryWindowSeconds }: SendResponseInput): Promise<'sent' | 'failed'> {
  setCurrentDetails('Validating with the official rules and sending the Invoice Response');
  const outcome = await deliverReply({ kind: 'invoice_response', id: responseId }, deliveryWindowSeconds);
  setCurrentDetails(outcome.status === 'sent' ? outcome.description : `Failed: ${outcome.error}`);
  return outcome.status;
}
