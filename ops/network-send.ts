import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { RoutingError, routingOf, standardBusinessDocument, type MlsRequest } from '../domain/peppol-envelope';
import { peppolIdProblem } from '../domain/peppol-id';
import { As4SendError, peppolAccessPoint, sendRequest } from '../platform/peppol-access-point';
import { DnsLookupError, peppolLookup, receivingEndpoint, SmpLookupError } from '../platform/peppol-lookup';
import { peppolTrust } from '../platform/peppol-trust';
import type { StackConfig } from '../stack/config';
import { localPkiFiles } from '../stack/peppol-access-points';
import { LOCAL_SML_ZONE } from '../stack/peppol-network/dns-server';

/**
 * `network send <receiver> <file.xml>`: the local Peppol network stand-in's
 * access point sends a UBL Invoice or CreditNote by AS4 to whatever access
 * point the receiver's SMP names (ours, for our live companies), the way a
 * foreign sender would: the envelope is built as our own live delivery
 * builds it (domain/peppol-envelope.ts, sender = the seller's EndpointID,
 * receiver = the one named here), the receiver is found through the running
 * stack's stand-in SML, and the stand-in's POST /send does the AS4.
 */

/** A send that could not be made or did not end with a receipt, said in one line. */
export class NetworkSendError extends Error {
  override name = 'NetworkSendError';
}

export interface NetworkSendOptions {
  receiver: string;
  file: string;
  /** The AS4 message id; a new one by default (give one to send the same message again). */
  messageId?: string;
  /** Ask the receiving access point for a Message Level Status (SBDH scopes MLS_TYPE and MLS_TO). */
  mls?: MlsRequest;
}

export async function networkSend(stack: StackConfig, { receiver, file, messageId = `${randomUUID()}@peppol-standin`, mls }: NetworkSendOptions): Promise<string> {
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

  const sml = `127.0.0.1:${stack.SML_DNS_PORT}`;
  // The stand-in's PKI: its SMP signs with it and every access point's certificate chains to its CA.
  const ca = localPkiFiles(path.join(stack.DATA_DIR, 'peppol-pki')).ca;
  const lookup = peppolLookup({ zone: LOCAL_SML_ZONE, dnsServer: sml, smpAddresses: { allowPrivate: true }, trust: peppolTrust({ PEPPOL_SMP_CA: ca, PEPPOL_AP_CA: ca }) });
  let endpoint;
  try {
    endpoint = await receivingEndpoint(lookup, receiver, routing.kind, new Date());
  } catch (err) {
    if (err instanceof DnsLookupError || err instanceof SmpLookupError) {
      throw new NetworkSendError(`looking up ${receiver} on the local Peppol network failed: ${err.message} (is the embedded stack running? Its SML is at ${sml})`);
    }
    throw err;
  }
  if ('refusal' in endpoint) throw new NetworkSendError(endpoint.refusal);

  const standIn = `http://127.0.0.1:${stack.PEPPOL_RECEIVER_PORT}`;
  const sbd = standardBusinessDocument(ubl, routing, { instanceId: randomUUID(), createdAt: new Date(), ...(mls && { mls }) });
  try {
    const receipt = await peppolAccessPoint(standIn, "the local Peppol network stand-in's access point").send(sendRequest(routing, { messageId, endpoint, sbd }));
    return [
      `delivered: ${routing.kind.replace('_', ' ')} from ${routing.sender} to ${receiver} at ${endpoint.url} (access point ${receipt.receiverSeat})`,
      `AS4 message id ${receipt.messageId}; receipt ${receipt.receiptMessageId} at ${receipt.receiptTimestamp}`,
    ].join('\n');
  } catch (err) {
    if (err instanceof As4SendError) throw new NetworkSendError(`not delivered to ${receiver} at ${endpoint.url} (AS4 message id ${messageId}): ${err.message}`);
    throw err;
  }
}
