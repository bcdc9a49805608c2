import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';

import { RoutingError, routingOf, type MlsRequest } from '../domain/peppol/envelope';
import { peppolIdProblem } from '../domain/peppol/ids';
import type { StackConfig } from '../stack/config';
import {
  NetworkSendError,
  sendFromStandIn,
  type SendingAccessPoint,
  type StandIn,
} from '../stack/peppol-network/standin-send';

export { NetworkSendError };

/**
 * `network send <receiver> <file.xml>`: the local Peppol network stand-in's
 * access point sends a UBL Invoice or CreditNote by AS4 to whatever access
 * point the receiver's SMP names (ours, for our live companies), the way a
 * foreign sender would: the envelope is built as our own live delivery
 * builds it (domain/peppol/envelope.ts, sender = the seller's EndpointID,
 * receiver = the one named here), the receiver is found through the running
 * stack's stand-in SML, and the stand-in's POST /send does the AS4
 * (stack/peppol-network/standin-send.ts), or, `--via oxalis`, the
 * independent access point Oxalis does.
 */

export interface NetworkSendOptions {
  receiver: string;
  file: string;
  /** The AS4 message id; a new one by default (give one to send the same message again). */
  messageId?: string;
  /** Ask the receiving access point for a Message Level Status (SBDH scopes MLS_TYPE and MLS_TO). */
  mls?: MlsRequest;
  /** Which access point of the stand-in sends: its own (phase4), or the independent one (Oxalis). */
  via?: SendingAccessPoint;
}

/** The running embedded stack's stand-in, found by the variables `npm start` reads. */
export const standInOf = (stack: StackConfig): StandIn => ({
  dnsServer: `127.0.0.1:${stack.SML_DNS_PORT}`,
  accessPointUrl: `http://127.0.0.1:${stack.PEPPOL_RECEIVER_PORT}`,
  dataDir: stack.DATA_DIR,
  toolsDir: stack.TOOLS_DIR,
});

export async function networkSend(
  stack: StackConfig,
  { receiver, file, messageId = `${randomUUID()}@peppol-standin`, mls, via = 'stand-in' }: NetworkSendOptions,
): Promise<string> {
  const problem = peppolIdProblem(receiver);
  if (problem) throw new NetworkSendError(`${receiver} is not a Peppol participant id: ${problem}`);
  let ubl: string;
  try {
    ubl = (await readFile(file, 'utf8')).replace(/^\uFEFF/, '');
  } catch (err) {
    throw new NetworkSendError(`cannot read ${file}: ${(err as Error).message}`);
  }
  let routing;
  try {
    routing = { ...routingOf(ubl), receiver };
  } catch (err) {
    if (err instanceof RoutingError) throw new NetworkSendError(`${file} cannot be sent on Peppol: ${err.message}`);
    throw err;
  }
  const { receipt, endpointUrl } = await sendFromStandIn(standInOf(stack), {
    ubl,
    routing,
    service: routing.kind,
    messageId,
    instanceId: randomUUID(),
    via,
    ...(mls && { mls }),
  });
  return [
    `delivered${via === 'oxalis' ? ' by Oxalis' : ''}: ${routing.kind.replace('_', ' ')} from ${routing.sender} to ${receiver} at ${endpointUrl} (access point ${receipt.receiverSeat})`,
    `AS4 message id ${receipt.messageId}; receipt ${receipt.receiptMessageId} at ${receipt.receiptTimestamp}`,
  ].join('\n');
}
