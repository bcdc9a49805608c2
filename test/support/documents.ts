import { READABLE_PDF_LIMIT_MS } from '../../activities/rendered-pdf';
import { calculate } from '../../domain/documents/calculate';
import { convertDocument } from '../../domain/documents/convert';
import { documentInputSchema } from '../../domain/documents/input';
import { newSortableId } from '../../domain/ids';
import type { DocumentAcceptance } from '../../domain/documents/acceptance';
import { stageDocument, totalsView } from '../../services/documents/accept';
import { identityOf } from '../../services/receiving/participant-review';
import type { Store } from '../../store';
import type { SendingCompany } from '../../domain/documents/convert';
import { belgianSeller, validFixtures } from '../fixtures/documents';
import { callAs, signUp, withStore, type CallOptions, type StackAddress, type TestAccount } from './accounts';
import { sharedStack } from './test-stack';
import { until } from './until';

/** A fresh account with a company that can send (the validated example seller). */
export async function sendingAccount(
  on?: StackAddress,
  seller: SendingCompany = belgianSeller,
): Promise<TestAccount & { companyId: string }> {
  const account = await signUp('sender', on?.apiUrl);
  const company = await callAs(account.key, '/v1/companies', {
    ...(on && { baseUrl: on.apiUrl }),
    method: 'POST',
    body: { ...seller, address: { ...seller.address } },
  });
  if (company.status !== 201) throw new Error(`company: ${company.text}`);
  return { ...account, companyId: company.body.id };
}

/** The host the API serves the live environment on. */
export const LIVE = 'live.localhost';

/** Where a document is reached: a host (the live one), and the shared stack's API unless another's is given. */
type Where = Pick<CallOptions, 'host' | 'baseUrl'>;

/** A sender whose workspace is verified (as KYC approval leaves it: live, its company's identity verified), with a live key. */
export async function liveSender(on?: StackAddress, seller?: SendingCompany) {
  const sender = await sendingAccount(on, seller);
  await withStore(async (store) => {
    await store.workspaces.updateOne({ _id: sender.workspaceId }, { $set: { mode: 'live' } });
    await verifyIdentity(store, sender.companyId);
  }, on?.mongodbUri);
  const key = await callAs(sender.key, '/v1/account/keys', {
    ...(on && { baseUrl: on.apiUrl }),
    method: 'POST',
    body: { sandbox: false, label: 'live' },
  });
  return { ...sender, liveKey: key.body.api_key as string };
}

/** Records the company's identity as it stands now as verified, as a KYC approval does (services/receiving/participant-review.ts). */
async function verifyIdentity(store: Store, companyId: string): Promise<void> {
  const company = await store.companies.findById(companyId).lean();
  if (!company) throw new Error(`no company ${companyId}`);
  await store.companies.updateOne(
    { _id: companyId },
    { $set: { verified_identity: { ...identityOf(company), by: 'kyc', reviewer: null, at: new Date() } } },
  );
}

export const postLive = (key: string, body: unknown, where: Where = { host: LIVE }) =>
  callAs(key, '/v1/documents', { ...where, method: 'POST', body });

export interface HistoryStep {
  step: string;
  message: string | null;
  error_message: string | null;
}

/** A live document's history. */
export async function liveHistory(
  key: string,
  documentId: string,
  where: Where = { host: LIVE },
): Promise<HistoryStep[]> {
  return (await callAs(key, `/v1/documents/${documentId}/history`, where)).body as HistoryStep[];
}

/**
 * How long a sandbox document may take to be delivered on a busy stack: its email's PDF alone may take the
 * renderer's whole budget (a 1,000-line rendering in another test can hold the CPU), then validation and the send.
 */
const SANDBOX_DELIVERY_WAIT_MS = READABLE_PDF_LIMIT_MS + 45_000;

/** Polls a document until its status is one of `statuses`; `where` is the live host, or another stack's API. */
export async function waitForStatus(
  key: string,
  documentId: string,
  companyId: string,
  statuses: string[],
  timeoutMs = SANDBOX_DELIVERY_WAIT_MS,
  where: Where = {},
) {
  const read = () =>
    callAs(key, `/v1/documents/${documentId}?company_id=${companyId}`, where).then((response) => response.body);
  return until(
    `document ${documentId} to be ${statuses.join(' or ')}`,
    read,
    (document) => statuses.includes(document?.status),
    timeoutMs,
    150,
  );
}

export interface InboxMessage {
  id: string;
  subject: string;
  messageId: string;
  to: { address: string }[];
  /** The plain-text body. */
  text?: string;
  attachments?: { fileName: string; generatedFileName: string; contentType: string }[];
}

/** Messages in the mail sink addressed to `recipient`. */
export async function inboxFor(recipient: string, inboxUrl = sharedStack().inboxUrl): Promise<InboxMessage[]> {
  const response = await fetch(`${inboxUrl}/email`);
  const messages = (await response.json()) as InboxMessage[];
  return messages.filter((message) => message.to.some((to) => to.address === recipient));
}

/** maildev serves an attachment under the name it generated for it. */
export async function attachmentBytes(
  message: InboxMessage,
  generatedFileName: string,
  inboxUrl = sharedStack().inboxUrl,
): Promise<Buffer> {
  const response = await fetch(`${inboxUrl}/email/${message.id}/attachment/${encodeURIComponent(generatedFileName)}`);
  return Buffer.from(await response.arrayBuffer());
}

export const attachmentText = async (
  message: InboxMessage,
  generatedFileName: string,
  inboxUrl = sharedStack().inboxUrl,
): Promise<string> => (await attachmentBytes(message, generatedFileName, inboxUrl)).toString('utf8');

/**
 * What the API does for a posted sandbox document up to its workflow's start: the first valid fixture, to
 * `email`, converted, its parts stored under a new id (made `at` that time), and the acceptance it would start
 * the workflow with.
 */
export async function partsStoredAsTheApiDoes(
  sender: TestAccount & { companyId: string },
  email: string,
  options: { idempotencyKey?: string; at?: number } = {},
): Promise<DocumentAcceptance> {
  const body = validFixtures[0]!.body;
  const input = documentInputSchema.parse({
    ...body,
    company_id: sender.companyId,
    to: { ...(body.to as object), email },
  });
  return withStore(async (store) => {
    const company = (await store.companies.findById(sender.companyId).lean())!;
    const conversion = convertDocument(input, company);
    if (!conversion.ok) throw new Error('fixture refused');
    const at = new Date(options.at ?? Date.now());
    const accepted = {
      document: conversion.document,
      totals: totalsView(calculate(conversion.document)),
      ubl: conversion.ubl,
      attachmentIds: [],
    };
    const from = {
      accountId: sender.id,
      accountEmail: sender.email,
      keyPrefix: sender.prefix,
      environment: 'sandbox' as const,
    };
    return stageDocument(store, from, company, accepted, {
      id: newSortableId('document', at.getTime()),
      idempotencyKey: options.idempotencyKey,
      now: at,
    });
  });
}
