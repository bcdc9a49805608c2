import { X509Certificate } from 'node:crypto';
import path from 'node:path';

import type { EnvelopeRouting, MlsRequest } from '../../domain/peppol/envelope';
import { standardBusinessDocument } from '../../domain/peppol/envelope';
import type { Deliverable } from '../../domain/peppol/capabilities';
import { As4SendError, peppolAccessPoint, sendRequest, type As4Receipt } from '../../platform/peppol/access-point';
import { DnsLookupError, peppolLookup, receivingEndpoint, SmpLookupError } from '../../platform/peppol/lookup';
import { peppolTrust } from '../../platform/peppol/trust';
import { localPkiFiles } from '../peppol-access-points';
import { ensureTool, PEPPOL_OXALIS } from '../tools';
import { oxalisDirs, oxalisHome, OxalisSendError, sendByOxalis } from './oxalis';
import { LOCAL_SML_ZONE } from './dns-server';

/**
 * How the local Peppol network stand-in sends anything (an invoice by `ops
 * network send`, an Invoice Response or an MLS by its responder or `ops
 * network respond`): the receiver found the way our sender finds one (the
 * stand-in SML by DNS, then the SMP it names, which must list the document
 * type under its process), the UBL put in the envelope our live delivery
 * writes, and the stand-in's access point (`POST /send`) doing the AS4, or
 * the independent one (Oxalis' sender) when it is asked to.
 */

/** A send that could not be made or did not end with a receipt, said in one line. */
export class NetworkSendError extends Error {
  override name = 'NetworkSendError';
}

/** Where the running stand-in is: its SML's DNS, its access point, its data (the local PKI), the tools (Oxalis). */
export interface StandIn {
  dnsServer: string;
  accessPointUrl: string;
  dataDir: string;
  /** Where the built tools are: Oxalis, when it sends. */
  toolsDir?: string;
}

/** Which of the stand-in's access points sends: its own (phase4, as ours), or the independent one (Oxalis). */
export type SendingAccessPoint = 'stand-in' | 'oxalis';

export interface StandInMessage {
  ubl: string;
  routing: EnvelopeRouting;
  /** What the receiver is looked up for. */
  service: Deliverable;
  /** The AS4 message id (the stand-in's own access point only: Oxalis chooses its own). */
  messageId: string;
  instanceId: string;
  mls?: MlsRequest;
  via?: SendingAccessPoint;
}

/** How often, and how far apart, a sending access point tries one message again when the receiver says "not now". */
const SENDER_ATTEMPTS = 5;
const SENDER_PAUSE_MS = 2_000;

/**
 * Sends as a sending access point does: an answer that says "try again later" (EBMS:0202 when the receiver could
 * not store the message yet, e.g. its database busy or restarting) is tried again with the same message, a few
 * seconds apart; an answer that would be the same again (`permanent`) ends it at once.
 * @internal
 */
export async function sendAsASenderWould<T>(send: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (err) {
      if (!(err instanceof As4SendError) || err.permanent || attempt === SENDER_ATTEMPTS) throw err;
      await new Promise((resolve) => setTimeout(resolve, SENDER_PAUSE_MS * attempt));
    }
  }
}

export async function sendFromStandIn(
  standIn: StandIn,
  message: StandInMessage,
): Promise<{ receipt: As4Receipt; endpointUrl: string }> {
  // The stand-in's PKI: its SMP signs with it and every access point's certificate chains to its CA.
  const ca = localPkiFiles(path.join(standIn.dataDir, 'peppol-pki')).ca;
  const lookup = peppolLookup({
    zone: LOCAL_SML_ZONE,
    dnsServer: standIn.dnsServer,
    smpAddresses: { allowPrivate: true },
    httpSmp: true,
    trust: peppolTrust({ PEPPOL_SMP_CA: ca, PEPPOL_AP_CA: ca }),
  });
  const { receiver } = message.routing;
  let endpoint;
  try {
    endpoint = await receivingEndpoint(lookup, receiver, message.service, new Date());
  } catch (err) {
    if (err instanceof DnsLookupError || err instanceof SmpLookupError) {
      throw new NetworkSendError(
        `looking up ${receiver} on the local Peppol network failed: ${err.message} (is the embedded stack running? Its SML is at ${standIn.dnsServer})`,
      );
    }
    throw err;
  }
  if ('refusal' in endpoint) throw new NetworkSendError(endpoint.refusal);
  const sbd = standardBusinessDocument(message.ubl, message.routing, {
    instanceId: message.instanceId,
    createdAt: new Date(),
    ...(message.mls && { mls: message.mls }),
  });
  if (message.via === 'oxalis')
    return { receipt: await sendWithOxalis(standIn, sbd, endpoint), endpointUrl: endpoint.url };
  try {
    const accessPoint = peppolAccessPoint(standIn.accessPointUrl, "the local Peppol network stand-in's access point");
    const receipt = await sendAsASenderWould(() =>
      accessPoint.send(sendRequest(message.routing, { messageId: message.messageId, endpoint, sbd })),
    );
    return { receipt, endpointUrl: endpoint.url };
  } catch (err) {
    if (err instanceof As4SendError)
      throw new NetworkSendError(
        `not delivered to ${receiver} at ${endpoint.url} (AS4 message id ${message.messageId}): ${err.message}`,
      );
    throw err;
  }
}

/** The independent access point sends it: Oxalis' own sender, with its certificate (seat POX000003). */
async function sendWithOxalis(
  standIn: StandIn,
  sbd: string,
  endpoint: { url: string; certificate: string },
): Promise<As4Receipt> {
  if (!standIn.toolsDir) throw new NetworkSendError('Oxalis sends only where the built tools are known (TOOLS_DIR)');
  const pki = localPkiFiles(path.join(standIn.dataDir, 'peppol-pki'));
  const setup = await oxalisHome(
    await ensureTool(standIn.toolsDir, PEPPOL_OXALIS, () => undefined),
    oxalisDirs(standIn.dataDir).sender,
    {
      keystore: pki.oxalisKeystore,
      trustedCas: [pki.ca],
      truststore: pki.truststoreJks,
    },
  );
  const certificate = new X509Certificate(Buffer.from(endpoint.certificate, 'base64'));
  try {
    const sent = await sendByOxalis(setup, sbd, { url: endpoint.url, certificate: certificate.toString() });
    return {
      messageId: sent.messageId,
      receiptMessageId: sent.receiptMessageId,
      receiptTimestamp: sent.receiptTimestamp,
      receiverSeat: /CN=([^,\n]+)/.exec(certificate.subject)?.[1] ?? '',
    };
  } catch (err) {
    if (err instanceof OxalisSendError)
      throw new NetworkSendError(`not delivered to ${endpoint.url} by Oxalis: ${err.message}`);
    throw err;
  }
}
