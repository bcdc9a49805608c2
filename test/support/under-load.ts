import mongoose from 'mongoose';

import { RECEIVED_DOCUMENT_TYPES } from '../../services/receiving/registration';
import { sendAsASenderWould } from '../../stack/peppol-network/standin-send';
import { belgianSeller, validFixtures } from '../fixtures/documents';
import { callAs } from './accounts';
import { callApi } from './http';
import { sendToUs, ublTo, uniqueBelgianPeppolId } from './receiving';
import { until } from './until';
import { WebhookReceiver } from './webhook-receiver';

/**
 * The invariants a stack must keep while its processes are killed, whatever its shape (the development
 * lifecycle test and the production shape's): every accepted document delivered once, every event delivered
 * once per delivery id, every receipted AS4 message filed once.
 */

/** How many documents a load run accepts at the least. */
const ENOUGH_DOCUMENTS = 20;
/** How long the accepted documents may take to be delivered once the kills are over. */
const DELIVERY_DEADLINE_MS = 300_000;
/**
 * The pause between two posts. Every 100 ms, a CI run on two loaded cores queued some thousand documents, whose
 * validations and PDFs outlasted any deadline; every 400 ms still posts several while each process is away.
 */
const POST_INTERVAL_MS = 400;

/** A process of the stack to kill, and whether killing it can cut an SMTP attempt off between the server's acceptance and its note. */
export interface Kill {
  name: string;
  kill: () => Promise<void>;
  cutsSmtp: boolean;
}

/** The stack under test: its API, its mail sink's inbox page and its database. */
export interface StackUnderTest {
  api: string;
  inbox: string;
  mongodb: string;
}

/**
 * Posts sandbox documents every POST_INTERVAL_MS while each kill happens in turn (each awaited until its process is back), then
 * checks that every accepted one was delivered by email once (a second copy only where a kill could cut an SMTP attempt
 * off) and that its three events reached the webhook, one body per delivery id.
 */
export async function documentsDeliveredOnceUnderKills(
  stack: StackUnderTest,
  email: string,
  kills: Kill[],
): Promise<void> {
  const { key, companyId, receiver } = await accountWithAWebhook(stack, email);
  const run = await postThroughKills(stack.api, key, companyId, kills);
  await expectEachEmailedOnce(stack, key, companyId, run);
  await expectEachEventAtTheWebhookOnce(receiver, run.accepted);
}

/** A fresh account on the stack with a company, and a webhook of every event to a receiver of the test's own. */
async function accountWithAWebhook(stack: StackUnderTest, email: string) {
  const { api } = stack;
  const signup = await callApi('/v1/signup', {
    baseUrl: api,
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  const key: string = signup.body.api_key;
  const company = await callAs(key, '/v1/companies', { baseUrl: api, method: 'POST', body: { ...belgianSeller } });
  expect([company.status, company.text]).toEqual([201, expect.any(String)]);
  const receiver = new WebhookReceiver();
  await receiver.start();
  expect(
    (await callAs(key, '/v1/webhooks', { baseUrl: api, method: 'POST', body: { url: receiver.url, events: ['*'] } }))
      .status,
  ).toBe(201);
  return { key, companyId: company.body.id as string, receiver };
}

/** What a load run came to: the documents accepted, and when each kill happened. */
interface LoadRun {
  accepted: string[];
  killed: { kill: Kill; at: number }[];
}

/**
 * Posts documents every POST_INTERVAL_MS while each kill happens in turn, and on until ENOUGH_DOCUMENTS were
 * accepted; no answer meanwhile is a 500.
 */
async function postThroughKills(api: string, key: string, companyId: string, kills: Kill[]): Promise<LoadRun> {
  const accepted: string[] = [];
  const failedAnswers: { status: number; code?: string }[] = [];
  /** The first answers that were not 202, for a run that accepts too few to say why. */
  const refusals: string[] = [];
  const killed: { kill: Kill; at: number }[] = [];
  let posting = true;
  const poster = (async () => {
    for (let n = 0; posting; n += 1) {
      const body = {
        ...validFixtures[0]!.body,
        company_id: companyId,
        number: `LOAD-${n}`,
        to: { ...(validFixtures[0]!.body.to as object), email: 'load@example.com' },
      };
      // No answer at all is what a killed API process leaves its open requests with; an answer the description
      // does not list (the front's 502, a 500) is kept by its status.
      const response = await callAs(key, '/v1/documents', { baseUrl: api, method: 'POST', body }).catch(
        (err: Error) => {
          const undocumented = /answered (\d{3})/.exec(err.message)?.[1];
          if (undocumented) failedAnswers.push({ status: Number(undocumented), code: err.message.slice(0, 300) });
          return undefined;
        },
      );
      if (response?.status === 202) accepted.push(response.body.id);
      else if (refusals.length < 5)
        refusals.push(response ? `${response.status} ${response.body?.error?.code ?? ''}` : 'no answer');
      if (response && response.status >= 500)
        failedAnswers.push({ status: response.status, code: response.body?.error?.code });
      await new Promise((resolve) => setTimeout(resolve, POST_INTERVAL_MS));
    }
  })();

  for (const kill of kills) {
    killed.push({ kill, at: Date.now() });
    await kill.kill();
    // Pacing, not a wait for anything: documents keep being posted between one kill and the next.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  // Enough documents to mean something, however quickly the kills went by (four on the production shape can take
  // under half a minute, with the API away for part of it): posting goes on until there are.
  await until(
    `${ENOUGH_DOCUMENTS} accepted documents`,
    () => Promise.resolve({ accepted: accepted.length, refusals }),
    ({ accepted: count }) => count >= ENOUGH_DOCUMENTS,
  );
  posting = false;
  await poster;
  // While a part is away the API says "try again" (503), or the front that its process is gone (502); never 500.
  expect(failedAnswers.filter((answer) => answer.status === 500)).toEqual([]);
  return { accepted, killed };
}

/** Every accepted document delivered, by email, once (a second copy only where a kill could cut an SMTP attempt off). */
async function expectEachEmailedOnce(
  stack: StackUnderTest,
  key: string,
  companyId: string,
  { accepted, killed }: LoadRun,
): Promise<void> {
  const { api } = stack;
  // One deadline for them all: the first waits out the recovery (a validator killed under load warms for minutes on
  // a loaded two-core machine), the rest follow it. Read in order, from the first not yet seen delivered.
  const undelivered = [...accepted];
  const deliveredSoFar = async () => {
    while (undelivered.length > 0) {
      const document = await callAs(key, `/v1/documents/${undelivered[0]}?company_id=${companyId}`, {
        baseUrl: api,
      });
      if (document.body?.status !== 'delivered') break;
      undelivered.shift();
    }
    return { undelivered: undelivered.length, first: undelivered[0] };
  };
  await until(
    'every accepted document delivered',
    deliveredSoFar,
    ({ undelivered: left }) => left === 0,
    DELIVERY_DEADLINE_MS,
    1_000,
  );
  const inbox = (await (await fetch(`${stack.inbox}/email`)).json()) as { messageId: string; date: string }[];
  const copiesOf = (id: string) => inbox.filter((message) => message.messageId === `${id}@einvoice.localhost`);
  expect(accepted.filter((id) => copiesOf(id).length === 0)).toEqual([]);
  // SMTP has no exactly-once: an attempt cut off between the server's acceptance and the note of it (the
  // worker killed in those milliseconds, or the mail server killed after storing the message but before
  // answering) is made again, with the same Message-ID. So between the first and the last copy of a document
  // (their Date headers, to the second) such a kill happened. Nothing else sends again: not Temporal lost (a
  // retried attempt finds the note), nor the database lost after a 250 (the attempt still counts;
  // delivery-failures.test.ts).
  const copyWithoutItsKill = accepted.filter((id) => {
    const sent = copiesOf(id)
      .map((copy) => Date.parse(copy.date))
      .sort((a, b) => a - b);
    const cutOff = ({ kill, at }: { kill: Kill; at: number }) =>
      kill.cutsSmtp && sent[0]! <= at && at < sent.at(-1)! + 1_000;
    return sent.length > 1 && !killed.some(cutOff);
  });
  expect(copyWithoutItsKill).toEqual([]);
}

/** Every event of every accepted document at the webhook, one body per delivery id; the receiver stopped once they are. */
async function expectEachEventAtTheWebhookOnce(receiver: WebhookReceiver, accepted: string[]): Promise<void> {
  // Three events a document (queued, sending, delivered), one delivery each, whatever was killed when: what a
  // crash interrupted, the activity's retry or the fan-out reconciler finishes.
  const kinds = ['document.queued', 'document.sending', 'document.delivered'];
  const deliveriesOf = () => {
    const bodies = new Map<string, Set<string>>();
    for (const request of receiver.received) {
      const id = String(request.headers['x-peppol-delivery-id']);
      bodies.set(id, (bodies.get(id) ?? new Set()).add(request.raw));
    }
    const events = [...bodies.values()].map(
      (set) => JSON.parse([...set][0]!) as { type: string; data: { document_id: string } },
    );
    return { bodies, events };
  };
  await until(
    'every event of every accepted document at the webhook',
    () => Promise.resolve(deliveriesOf().events),
    (events) =>
      accepted.every((id) =>
        kinds.every((kind) => events.some((event) => event.type === kind && event.data.document_id === id)),
      ),
    180_000,
    500,
  );
  await receiver.stop();
  const { bodies, events } = deliveriesOf();
  for (const id of accepted)
    expect(
      events
        .filter((event) => event.data.document_id === id)
        .map((event) => event.type)
        .sort(),
    ).toEqual([...kinds].sort());
  expect([...bodies.values()].every((set) => set.size === 1)).toBe(true);
}

/**
 * Sends one AS4 message to a registered company of ours before each kill (as a sender would, retrying "try again
 * later"), then checks that every receipted message was filed once.
 */
export async function receiptedMessagesFiledOnceUnderKills(
  stack: StackUnderTest,
  email: string,
  network: { accessPointUrl: string; dataDir: string; standInUrl: string },
  kills: Kill[],
): Promise<void> {
  const { api } = stack;
  const signup = await callApi('/v1/signup', {
    baseUrl: api,
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  const peppolId = uniqueBelgianPeppolId();
  const company = await callAs(signup.body.api_key, '/v1/companies', {
    baseUrl: api,
    method: 'POST',
    body: { ...belgianSeller, peppol_id: peppolId },
  });
  const db = await mongoose.createConnection(stack.mongodb).asPromise();
  try {
    // Registered as the registration workflow leaves it (KYC and the SML are other tests' business).
    const now = new Date();
    await db.collection('peppol_registrations').insertOne({
      _id: peppolId.toLowerCase() as unknown as mongoose.mongo.ObjectId,
      company_id: company.body.id,
      workspace_id: signup.body.workspace_id,
      participant_id: peppolId,
      document_types: RECEIVED_DOCUMENT_TYPES,
      status: 'registered',
      created_at: now,
      updated_at: now,
    });
    const messageIds: string[] = [];
    for (const kill of kills) {
      const messageId = `before-${kill.name.replace(/\W+/g, '-')}-dies-${Date.now()}@under-load`;
      await sendAsASenderWould(() =>
        sendToUs(ublTo('standard rate S, one line', peppolId), peppolId, messageId, network),
      );
      messageIds.push(messageId);
      await kill.kill();
    }
    const filed = () =>
      db.collection('documents').find({ company_id: company.body.id, direction: 'received' }).toArray();
    const documents = await until(
      'every receipted message filed',
      () => filed().catch(() => []),
      (found) => found.length >= messageIds.length,
      180_000,
      500,
    );
    expect(documents.map((document) => document.received.as4_message_id).sort()).toEqual([...messageIds].sort());
    // No window for a late second filing is needed: a message is stored before its receipt, and filed under the
    // stored message's id, so a second filing of anything would be a second stored message, counted here.
    expect(await db.collection('received_messages').countDocuments({ company_id: company.body.id })).toBe(
      messageIds.length,
    );
  } finally {
    await db.close();
  }
}
