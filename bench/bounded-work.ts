import { performance } from 'node:perf_hooks';

import { DOCUMENT_LIMITS } from '../domain/documents/input';
import { UBL_BOUNDS } from '../domain/xml-bounds';
import {
  belgianBuyerCompany,
  belgianSeller,
  invoiceNearTheElementBound,
  largestInvoice,
  validFixtures,
} from '../test/fixtures/documents';
import {
  benchStack,
  envNumber,
  fixtureInvoiceUbl,
  json,
  postXml,
  runBenchmark,
  say,
  signUpWithCompany,
} from './harness';
import { closedLoop, ms, singleClient, summarize, type Measurement } from './support';

/**
 * `npm run bench:bounds`: what hostile or merely large requests cost other
 * tenants, on an embedded stack of its own (docs/security.md):
 *   send     POST → `delivered` of a sandbox invoice, one at a time, alone and
 *            while BENCH_ATTACKERS clients post to the public validator UBL that
 *            nests 60,000 deep (refused by the bounds), then invoices of just under
 *            the element bound (validated in the public validator's lane, seconds each)
 *   refusal  how long the deeply nested document takes to be refused
 *   received POST → `delivered` again, after another tenant posted BENCH_ATTACKERS
 *            2 MB invoices (within the bounds) to the sandbox inbound endpoint at once
 *            (a security probe's load: received documents are validated in a lane of
 *            their own), and while BENCH_ATTACKERS clients post them without pause
 *   account  GET /v1/account from another tenant, alone and while three clients
 *            validate 1,000-line documents (converted on the API's worker threads)
 * BENCH_REQUESTS (20) sends and 200 account reads each; BENCH_ATTACKERS (4).
 */

const REQUESTS = envNumber('BENCH_REQUESTS', 20);
const ATTACKERS = envNumber('BENCH_ATTACKERS', 4);

const UBL_HEAD =
  '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">';
const deeplyNested = `${UBL_HEAD}${'<cbc:Note>'.repeat(60_000)}x${'</cbc:Note>'.repeat(60_000)}</Invoice>`;

/** A valid invoice to the fixtures' buyer of about 2 MB, within the bounds: 20,000 notes of 100 characters. */
function twoMegabytesReceived(): string {
  const ubl = fixtureInvoiceUbl();
  const notes = `<cbc:Note>${'n'.repeat(100)}</cbc:Note>`.repeat(20_000);
  return ubl.replace('<cbc:DocumentCurrencyCode>', `${notes}<cbc:DocumentCurrencyCode>`);
}

const line = (label: string, measured: Measurement, alone: Measurement) =>
  `${label}: p50 ${ms(measured.p50)}, p99 ${ms(measured.p99)} (alone: p50 ${ms(alone.p50)}, p99 ${ms(alone.p99)}; p50 ratio ${(measured.p50 / alone.p50).toFixed(2)})`;

/** Runs `attack` in `clients` loops until `measure` ends; the attack's own latencies are returned with the measurement. */
async function during(clients: number, attack: () => Promise<unknown>, measure: () => Promise<Measurement>) {
  let running = true;
  const latencies: number[] = [];
  const started = performance.now();
  const attackers = Array.from({ length: clients }, async () => {
    while (running) {
      const t0 = performance.now();
      await attack();
      latencies.push(performance.now() - t0);
    }
  });
  try {
    return { measured: await measure(), attack: summarize(latencies, (performance.now() - started) / 1000) };
  } finally {
    running = false;
    await Promise.all(attackers);
  }
}

type Tenant = Awaited<ReturnType<typeof signUpWithCompany>>;

/** POST → `delivered` of a sandbox invoice of `sender`'s, its status polled until then. */
function sendAndWaitFor(api: string, sender: Tenant): () => Promise<void> {
  const invoice = { ...validFixtures[0]!.body, company_id: sender.companyId };
  return async () => {
    const posted = await json(`${api}/v1/documents`, {
      method: 'POST',
      headers: sender.auth,
      body: JSON.stringify(invoice),
    });
    if (posted.status !== 202) throw new Error(`send answered ${posted.status}`);
    for (;;) {
      const read = await json(`${api}/v1/documents/${String(posted.body.id)}?company_id=${sender.companyId}`, {
        headers: sender.auth,
      });
      if (read.body.status === 'delivered') return;
      if (read.body.status === 'failed') throw new Error('the document failed');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
}

/**
 * Sends alone, then while the public validator is posted deeply nested UBL, then invoices just under the element
 * bound; the sends alone are what every later figure is set against.
 */
async function sendsDuringPublicValidations(api: string, sendAndWait: () => Promise<void>): Promise<Measurement> {
  const publicValidation = (xml: string) => () => postXml(`${api}/v1/ubl/validate`, xml);
  say(
    `stack on ${api}; ${ATTACKERS} attacking clients; bounds: depth ${UBL_BOUNDS.maxDepth}, ${UBL_BOUNDS.maxElements} elements`,
  );
  await singleClient(3, sendAndWait);
  const sendsAlone = await singleClient(REQUESTS, sendAndWait);
  const deep = await during(ATTACKERS, publicValidation(deeplyNested), () => singleClient(REQUESTS, sendAndWait));
  say(line('POST → delivered during deeply nested public validations', deep.measured, sendsAlone));
  say(
    `  the deeply nested document (${deeplyNested.length} bytes) refused: p50 ${ms(deep.attack.p50)}, p99 ${ms(deep.attack.p99)}, ${deep.attack.count} refused`,
  );
  const heavyXml = invoiceNearTheElementBound();
  const heavy = await during(ATTACKERS, publicValidation(heavyXml), () => singleClient(REQUESTS, sendAndWait));
  say(line('POST → delivered during validations of invoices just under the element bound', heavy.measured, sendsAlone));
  say(
    `  such an invoice (${heavyXml.length} bytes) validated or stopped: p50 ${ms(heavy.attack.p50)}, p99 ${ms(heavy.attack.p99)}, ${heavy.attack.count} answered`,
  );
  return sendsAlone;
}

/** Sends after another tenant received large documents at once, and while it receives them without pause. */
async function sendsWhileAnotherTenantReceives(
  api: string,
  sendAndWait: () => Promise<void>,
  sendsAlone: Measurement,
): Promise<void> {
  const receiver = await signUpWithCompany(api, 'bench-receiver', belgianBuyerCompany);
  const received = twoMegabytesReceived();
  const postReceived = async () => {
    const status = await postXml(`${api}/v1/sandbox/inbound`, received, receiver.auth);
    if (status !== 202) throw new Error(`sandbox inbound answered ${status}`);
  };
  // The security probe's load: a few large documents received at once, then another tenant's sends.
  await Promise.all(Array.from({ length: ATTACKERS }, postReceived));
  const afterReceiving = await singleClient(REQUESTS, sendAndWait);
  say(
    line(
      `POST → delivered while another tenant's ${ATTACKERS} ${(received.length / 1e6).toFixed(1)} MB documents received at once are filed`,
      afterReceiving,
      sendsAlone,
    ),
  );
  // Past the probe: the same documents without pause, limited by no rate (what a flood costs the database and the cores).
  const receiving = await during(ATTACKERS, postReceived, () => singleClient(REQUESTS, sendAndWait));
  say(
    line(
      `POST → delivered while another tenant receives ${(received.length / 1e6).toFixed(1)} MB documents without pause`,
      receiving.measured,
      sendsAlone,
    ),
  );
  say(
    `  each received document posted: p50 ${ms(receiving.attack.p50)}, p99 ${ms(receiving.attack.p99)}, ${receiving.attack.count} stored (filed afterwards, validated in the receive lane)`,
  );
}

/** `other`'s account reads, alone and while three of `sender`'s clients validate the largest documents allowed. */
async function accountDuringLargeValidations(api: string, sender: Tenant, other: Tenant): Promise<void> {
  const readAccount = () =>
    fetch(`${api}/v1/account`, { headers: other.auth }).then((response) => response.arrayBuffer());
  const large = JSON.stringify(largestInvoice(sender.companyId));
  const validateLarge = () =>
    json(`${api}/v1/documents/validate`, { method: 'POST', headers: sender.auth, body: large });
  const accountAlone = await closedLoop(200, 1, readAccount);
  const busy = await during(3, validateLarge, () => closedLoop(200, 1, readAccount));
  say(
    line(
      `GET /v1/account while 3 clients validate ${DOCUMENT_LIMITS.lines}-line documents (${large.length} bytes)`,
      busy.measured,
      accountAlone,
    ),
  );
  say(`  each large validation: p50 ${ms(busy.attack.p50)}, p99 ${ms(busy.attack.p99)}`);
}

async function main(): Promise<void> {
  const { stack, stop } = await benchStack({ UBL_VALIDATIONS_PER_IP: '1000000' });
  try {
    const api = stack.urls.api!;
    const sender = await signUpWithCompany(api, 'bench-sender', belgianSeller);
    const other = await signUpWithCompany(api, 'bench-other', belgianSeller);
    const sendAndWait = sendAndWaitFor(api, sender);
    const sendsAlone = await sendsDuringPublicValidations(api, sendAndWait);
    await sendsWhileAnotherTenantReceives(api, sendAndWait, sendsAlone);
    await accountDuringLargeValidations(api, sender, other);
  } finally {
    await stop();
  }
}

runBenchmark(main);
