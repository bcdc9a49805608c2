import { randomInt, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { convertDocument } from '../../domain/documents/convert';
import { documentInputSchema } from '../../domain/documents/input';
import { BIS_BILLING_CREDIT_NOTE, BIS_BILLING_INVOICE, BIS_BILLING_PROCESS } from '../../domain/peppol/capabilities';
import { routingOf, standardBusinessDocument, type PeppolRouting } from '../../domain/peppol/envelope';
import { CII_NS } from '../../domain/cii/syntax';
import { parseXml } from '../../domain/xml-tree';
import { peppolAccessPoint, sendRequest } from '../../platform/peppol/access-point';
import { belgianSeller, validFixtures } from '../fixtures/documents';
import { callAs, fakeClientIp } from './accounts';
import { callApi } from './http';
import { completeSubmission, readyToSubmit, submit, waitForKyc } from './kyc';
import { ops } from './ops';
import { sharedStack } from './test-stack';
import { until } from './until';

/** A Belgian enterprise number nobody else in the tests uses, as a Peppol id (0208, mod 97 check). */
export function uniqueBelgianPeppolId(): string {
  const base = `0${String(randomInt(10_000_000)).padStart(7, '0')}`;
  const check = 97 - (Number(base) % 97);
  return `0208:${base}${String(check).padStart(2, '0')}`;
}

/** UBL the example seller writes to `buyerPeppolId`: one of the validated fixtures, converted by the service's own code. */
export function ublTo(fixtureName: string, buyerPeppolId: string): string {
  const fixture = validFixtures.find((candidate) => candidate.name === fixtureName)!.body;
  const converted = convertDocument(
    documentInputSchema.parse({ ...fixture, to: { ...(fixture.to as object), peppol_id: buyerPeppolId } }),
    belgianSeller,
  );
  if (!converted.ok) throw new Error(`fixture ${fixtureName} is refused`);
  return converted.ubl;
}

/** An amount as a UBL document states it (the first element of that name). */
export const statedAmount = (ubl: string, element: string) =>
  new RegExp(`<cbc:${element}[^>]*>([^<]+)</cbc:${element}>`).exec(ubl)![1]!;

/**
 * A live company of its own workspace, with a Peppol id of its own unless one is given (and the other fields given, before its
 * KYC review), registered as a receiver; or, with `settled`, whatever its registration came to.
 */
export async function liveReceiver(
  fields: {
    peppol_id?: string;
    name?: string;
    company_registration_id?: string | null;
    tax_id?: string | null;
    directory?: boolean;
    migration_key?: string;
    [field: string]: unknown;
  } = {},
  settled: 'registered' | 'registered_or_failed' = 'registered',
) {
  const account = await readyToSubmit('receiver');
  const peppolId = fields.peppol_id ?? uniqueBelgianPeppolId();
  const patched = await callAs(account.key, `/v1/companies/${account.companyId}`, {
    method: 'PATCH',
    body: { ...fields, peppol_id: peppolId },
  });
  if (patched.status !== 200) throw new Error(`peppol_id: ${patched.text}`);
  const submitted = await submit(account.key, completeSubmission(account.companyId));
  if (submitted.status !== 200) throw new Error(`KYC submit: ${submitted.text}`);
  const approved = await ops('kyc', 'approve', account.workspaceId);
  if (approved.code !== 0) throw new Error(`kyc approve: ${approved.stderr}`);
  await waitForKyc(account.key, (state) => state.status === 'approved');
  const company = await until(
    'the registration',
    () => callAs(account.key, `/v1/companies/${account.companyId}`),
    (response) => response.body.receiving?.status === 'registered' || response.body.receiving?.status === 'failed',
  );
  if (company.body.receiving.status !== 'registered' && settled === 'registered')
    throw new Error(`registration failed: ${company.body.receiving.error_message}`);
  const liveKey: string = (
    await callAs(account.key, '/v1/account/keys', { method: 'POST', body: { sandbox: false, label: 'live' } })
  ).body.api_key;
  return {
    ...account,
    peppolId,
    liveKey,
    receiving: company.body.receiving as { status: string; error_message: string | null },
  };
}

/** What the SML publishes for the participant, as a sender's lookup sees it (GET /v1/lookup/{id}/dns, from an address of its own). */
export async function smlRecord(
  participant: string,
): Promise<{ registered: boolean; smp_url?: string; sml: { record?: { regexp: string } } }> {
  const response = await callApi(`/v1/lookup/${participant}/dns`, { headers: { 'X-Forwarded-For': fakeClientIp() } });
  if (response.status !== 200) throw new Error(`lookup: ${response.status} ${response.text}`);
  return response.body;
}

/** One Standard Business Document the stand-in's receiving access point took in (its GET /inbox lists them all). */
export interface StandInArrival {
  messageId: string;
  senderId: string;
  receiverId: string;
  documentTypeId: string;
  processId: string;
}

/** What the stand-in's receiving access point (the shared stack's, unless given) took in under this AS4 message id. */
export async function standInArrivals(
  messageId: string,
  standInUrl = sharedStack().peppol.receivingAccessPoint,
): Promise<StandInArrival[]> {
  const inbox = (await (await fetch(`${standInUrl}/inbox`)).json()) as StandInArrival[];
  return inbox.filter((arrival) => arrival.messageId === messageId);
}

/** Where a stack's access points and local test PKI are. */
export interface LocalNetwork {
  /** Our access point's control API. */
  accessPointUrl: string;
  /** The stack's data directory (its local test PKI). */
  dataDir: string;
  /** The stand-in's access point. */
  standInUrl: string;
}

const sharedNetwork = (): LocalNetwork => {
  const stack = sharedStack();
  return {
    accessPointUrl: stack.accessPointUrl,
    dataDir: stack.dataDir,
    standInUrl: stack.peppol.receivingAccessPoint,
  };
};

/**
 * Sends a UBL (or CII) document by AS4 from the stand-in's access point straight to
 * ours, the SBDH addressed to `receiver` for the BIS Billing 3.0 document
 * type of its root (what our SMP publishes): as a foreign access point that
 * found us through the SML would. Resolves with the receipt; an AS4 error
 * rejects with As4SendError.
 */
export async function sendToUs(
  ubl: string,
  receiver: string,
  messageId: string,
  network: LocalNetwork = sharedNetwork(),
) {
  const health = (await (await fetch(`${network.accessPointUrl}/health`)).json()) as {
    inbound: { endpointUrl: string };
  };
  const certificate = (await readFile(path.join(network.dataDir, 'peppol-pki', 'sender-ap.pem'), 'utf8')).replace(
    /-----[A-Z ]+-----|\s+/g,
    '',
  );
  const routing = routingToUs(ubl, receiver);
  return peppolAccessPoint(network.standInUrl, 'the stand-in').send(
    sendRequest(routing, {
      messageId,
      endpoint: { url: health.inbound.endpointUrl, certificate },
      sbd: standardBusinessDocument(ubl, routing, { instanceId: randomUUID(), createdAt: new Date() }),
    }),
  );
}

/**
 * How a document is addressed to `receiver`: a CII one as the service addresses one (domain/peppol/envelope.ts); a
 * UBL one as BIS Billing, from what it states, so that examples without a ProfileID or EndpointID travel too.
 */
function routingToUs(ubl: string, receiver: string): PeppolRouting {
  const root = parseXml(ubl);
  // CII and PINT go as the document types they claim; any other UBL (an example from anywhere) as BIS Billing.
  if (root.namespace === CII_NS.rsm || /<cbc:CustomizationID>urn:peppol:pint:/.test(ubl))
    return { ...routingOf(ubl), receiver };
  const kind = root.name === 'CreditNote' ? 'credit_note' : 'invoice';
  const endpoint = /<cac:AccountingSupplierParty>[\s\S]*?<cbc:EndpointID[^>]*schemeID="(\d{4})"[^>]*>([^<]+)</.exec(
    ubl,
  );
  return {
    kind,
    root: { namespace: root.namespace, name: root.name },
    documentType: kind === 'credit_note' ? BIS_BILLING_CREDIT_NOTE : BIS_BILLING_INVOICE,
    process: BIS_BILLING_PROCESS,
    sender: endpoint ? `${endpoint[1]}:${endpoint[2]}` : '0208:0123456749',
    receiver,
    countryC1: /<cac:AccountingSupplierParty>[\s\S]*?<cbc:IdentificationCode>([A-Z]{2})</.exec(ubl)?.[1] ?? 'BE',
  };
}
