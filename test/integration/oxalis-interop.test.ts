import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { routingOf, standardBusinessDocument } from '../../domain/peppol/envelope';
import { sbdPayload } from '../../domain/peppol/received-payload';
import { localPkiFiles } from '../../stack/peppol-access-points';
import {
  oxalisArrivals,
  oxalisDirs,
  oxalisHome,
  OxalisSendError,
  OXALIS_SEAT,
  sendByOxalis,
} from '../../stack/peppol-network/oxalis';
import {
  businessDocumentOf,
  inboxEntries,
  readBusinessDocument,
  sendInvoiceResponse,
  sendMessageLevelStatus,
} from '../../stack/peppol-network/responder';
import { loadStackConfig } from '../../stack/config';
import { ensureTool, PEPPOL_OXALIS } from '../../stack/tools';
import { validFixtures } from '../fixtures/documents';
import { callAs, withStore } from '../support/accounts';
import { LIVE, liveHistory, postLive, waitForStatus } from '../support/documents';
import { opsWith } from '../support/ops';
import { liveReceiver, ublTo } from '../support/receiving';
import { until } from '../support/until';
import { sharedStack } from '../support/test-stack';

/**
 * Our access point against one it did not write: Oxalis-AS4 7.0.0 (Apache
 * CXF and WSS4J; ours and the stand-in's are phase4), on the local network
 * stand-in with its own certificate (seat POX000003) and its own participants
 * in the stand-in SMP. Documents, Invoice Responses and Message Level
 * Statuses both ways; Oxalis' retry of one message and the same message twice
 * at once filed once; a message signed outside the AP CA refused.
 */

/** The participant Oxalis serves (invoices, credit notes, Invoice Responses), and its service provider's (MLS). */
const OXALIS_BUYER = '0208:0765432146';
const OXALIS_PROVIDER = '0242:000003';

const fixture = (name: string) => validFixtures.find((candidate) => candidate.name === name)!.body;
const pki = () => localPkiFiles(path.join(sharedStack().dataDir, 'peppol-pki'));
const inbound = () => oxalisDirs(sharedStack().dataDir).inbound;
const standIn = () => ({
  dnsServer: sharedStack().peppol.dnsServer,
  accessPointUrl: sharedStack().peppol.receivingAccessPoint,
  dataDir: sharedStack().dataDir,
  toolsDir: loadStackConfig().TOOLS_DIR,
});
const network = () => ({
  SML_DNS_PORT: sharedStack().peppol.dnsServer.split(':')[1]!,
  PEPPOL_RECEIVER_PORT: new URL(sharedStack().peppol.receivingAccessPoint).port,
  DATA_DIR: sharedStack().dataDir,
});
/** Oxalis keeps a message under its id with every character but letters and digits as `_`. */
const oxalisFileOf = (messageId: string) => `${messageId.replace(/[^A-Za-z0-9]/g, '_')}.doc.xml`;
const arrivalOf = async (messageId: string) =>
  (await oxalisArrivals(inbound())).find((arrival) => arrival.file === oxalisFileOf(messageId));

/** UBL whose seller is the participant Oxalis serves, to our company. */
const fromOxalisBuyer = (receiver: string) =>
  ublTo('standard rate S, one line', receiver).replace(
    'schemeID="0208">0123456749<',
    `schemeID="0208">${OXALIS_BUYER.slice(5)}<`,
  );

/** Our access point's AS4 endpoint and certificate, as our SMP publishes them. */
async function ourEndpoint() {
  const health = (await (await fetch(`${sharedStack().accessPointUrl}/health`)).json()) as {
    inbound: { endpointUrl: string };
  };
  return { url: health.inbound.endpointUrl, certificate: await readFile(pki().senderCertificate, 'utf8') };
}

/**
 * Between Oxalis and our access point: passes each request on and keeps it with our answer, so the very same
 * message can be sent again and the AS4 signal our side answered read as it went back.
 */
async function recordingProxy(target: string) {
  const recorded: { headers: http.IncomingHttpHeaders; body: Buffer; answer: string }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      void fetch(target, { method: 'POST', headers: { 'Content-Type': req.headers['content-type']! }, body }).then(
        async (response) => {
          const answer = Buffer.from(await response.arrayBuffer());
          recorded.push({ headers: req.headers, body, answer: answer.toString('utf8') });
          res
            .writeHead(response.status, {
              'Content-Type': response.headers.get('content-type') ?? 'application/octet-stream',
            })
            .end(answer);
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/as4`,
    recorded,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let workDir: string;
let receiver: Awaited<ReturnType<typeof liveReceiver>>;
beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'oxalis-interop-'));
  // Its VAT number is part of what its KYC review verifies: a live document states no other (sender-identity.test.ts).
  receiver = await liveReceiver({ tax_id: 'BE0123456749' });
  expect((await opsWith({}, 'credits', 'add', receiver.workspaceId, '5.00')).code).toBe(0);
}, 120_000);
afterAll(() => rm(workDir, { recursive: true, force: true }));

/** The local addresses listening on TCP `port` on this machine, from the kernel's socket tables (IPv4 and IPv6, hex as the kernel writes them). */
async function listeningAddresses(port: number): Promise<string[]> {
  const LISTEN = '0A';
  const found: string[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of (await readFile(table, 'utf8').catch(() => '')).split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      const [address, hexPort] = (local ?? '').split(':');
      if (state === LISTEN && hexPort && parseInt(hexPort, 16) === port) found.push(address!);
    }
  }
  return found;
}

describe("the stand-in's Oxalis", () => {
  it('listens on 127.0.0.1 only, as every component of the embedded stack does', async () => {
    const addresses = await listeningAddresses(Number(new URL(sharedStack().peppol.oxalis).port));
    // 127.0.0.1 as the kernel writes it: IPv4's 0100007F, or IPv4-mapped in IPv6 (Java's dual-stack socket);
    // every interface would be all zeros.
    const loopback = ['0100007F', '0000000000000000FFFF00000100007F'];
    expect(addresses.length).toBeGreaterThan(0);
    expect(addresses.filter((address) => !loopback.includes(address))).toEqual([]);
  });
});

describe('our access point and Oxalis', () => {
  const sent: Record<string, string> = {};

  it.each([
    ['invoice', 'standard rate S, one line'],
    ['credit note', 'credit note with invoice reference and due date'],
  ])(
    'when we send a live %s to a participant Oxalis serves, then Oxalis receipts it, our side checks the receipt, and Oxalis keeps the SBD carrying our UBL byte for byte',
    async (kind, name) => {
      const body = fixture(name);
      const posted = await postLive(receiver.liveKey, {
        ...body,
        company_id: receiver.companyId,
        number: `OXALIS-${kind}-${Date.now()}`,
        to: { ...(body.to as object), peppol_id: OXALIS_BUYER },
      });
      expect(posted.status).toBe(202);
      const document = await waitForStatus(
        receiver.liveKey,
        posted.body.id,
        receiver.companyId,
        ['delivered', 'failed'],
        90_000,
        { host: LIVE },
      );
      expect(document).toMatchObject({ status: 'delivered', message_id: `${posted.body.id}@einvoice` });
      const delivered = (await liveHistory(receiver.liveKey, posted.body.id)).find((step) => step.step === 'delivered');
      expect(delivered?.message).toContain(`to ${OXALIS_BUYER} (access point ${OXALIS_SEAT}); AS4 receipt`);

      const arrival = await until(
        'Oxalis keeping it',
        () => arrivalOf(`${posted.body.id}@einvoice`),
        (found) => found !== undefined,
      );
      expect(arrival!.receiver).toBe(OXALIS_BUYER.replace(':', '_'));
      const ubl = await callAs(receiver.liveKey, `/v1/documents/${posted.body.id}/ubl`, { host: LIVE });
      expect(sbdPayload(Buffer.from(arrival!.sbd))!.toString('utf8')).toBe(
        ubl.text.replace(/^<\?xml[^?]*\?>\s*/, '').trim(),
      );
      sent[kind] = posted.body.id;
    },
    120_000,
  );

  it('when Oxalis answers our invoice with a Message Level Status and an Invoice Response, then both are filed on it', async () => {
    const documentId = sent.invoice!;
    const arrival = (await arrivalOf(`${documentId}@einvoice`))!;
    const received = businessDocumentOf(Buffer.from(arrival.sbd), {
      messageId: `${documentId}@einvoice`,
      receivedAt: new Date().toISOString(),
      fromPartyId: 'PBE000001',
      documentTypeId: `busdox-docid-qns::${routingOf(sbdPayload(Buffer.from(arrival.sbd))!.toString('utf8')).documentType.value}`,
      stem: arrival.file,
    })!;
    expect(received.mlsType).toBe('ALWAYS_SEND');
    expect(await sendMessageLevelStatus(standIn(), received, OXALIS_SEAT, 'oxalis')).toContain('delivered');
    expect(
      await sendInvoiceResponse(standIn(), received, { code: 'AB', reasons: [], actions: [], note: null }, 'oxalis'),
    ).toContain('delivered');
    const answered = await until(
      'the MLS and the response on our document',
      () => callAs(receiver.liveKey, `/v1/documents/${documentId}?company_id=${receiver.companyId}`, { host: LIVE }),
      (response) => response.body.mls?.code === 'AP' && response.body.response?.code === 'AB',
    );
    expect(answered.body.status).toBe('delivered');
  }, 120_000);

  it('when Oxalis sends a Message Level Status about an invoice we delivered to another access point, then it is not filed on that invoice but kept with the unmatched ones', async () => {
    const body = fixture('standard rate S, one line');
    const number = `OXALIS-NOT-ITS-${Date.now()}`;
    const posted = await postLive(receiver.liveKey, { ...body, company_id: receiver.companyId, number });
    expect(posted.status).toBe(202);
    await waitForStatus(receiver.liveKey, posted.body.id, receiver.companyId, ['delivered', 'failed'], 90_000, {
      host: LIVE,
    });
    // Delivered to the stand-in's buyer through the stand-in's access point (PBE000001), which keeps it in its inbox.
    const standInInbox = path.join(sharedStack().dataDir, 'peppol-network', 'inbox');
    const delivered = await until(
      'the invoice at the stand-in',
      async () => {
        for (const entry of await inboxEntries(standInInbox)) {
          const read = await readBusinessDocument(standInInbox, entry);
          if (read?.number === number) return read;
        }
        return undefined;
      },
      (found) => found !== undefined,
    );

    // Oxalis speaks for a message it never received: the status names the right instance but comes from POX000003.
    expect(await sendMessageLevelStatus(standIn(), delivered!, OXALIS_SEAT, 'oxalis')).toContain('delivered');
    const unmatched = await until(
      'the MLS kept unmatched',
      () => opsWith({}, 'mls', 'unmatched'),
      (result) => result.stdout.includes(delivered!.instanceId!),
    );
    expect(
      JSON.parse(unmatched.stdout.split('\n').find((line) => line.includes(delivered!.instanceId!))!),
    ).toMatchObject({
      code: 'AP',
      referenced_instance_id: delivered!.instanceId,
      from_access_point: OXALIS_SEAT,
    });
  }, 180_000);

  it('when Oxalis sends an invoice to our live company asking for an MLS, then it is filed once, Oxalis accepts our signed receipt, and our MLS and Invoice Response reach Oxalis', async () => {
    const file = path.join(workDir, 'from-oxalis.xml');
    await writeFile(file, fromOxalisBuyer(receiver.peppolId));
    // The options before the arguments as well as after them (ops/arguments.ts).
    const result = await opsWith(
      network(),
      'network',
      'send',
      '--via',
      'oxalis',
      receiver.peppolId,
      file,
      '--mls',
      'always',
      '--mls-to',
      OXALIS_PROVIDER,
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(
      new RegExp(
        `^delivered by Oxalis: invoice from ${OXALIS_BUYER} to ${receiver.peppolId} at \\S+ \\(access point PBE000001\\)`,
      ),
    );
    const messageId = /AS4 message id (\S+);/.exec(result.stdout)![1]!;

    const listed = await until(
      'the inbox',
      () => callAs(receiver.liveKey, `/v1/inbox?company_id=${receiver.companyId}`, { host: LIVE }),
      (response) => response.body.data?.length === 1,
    );
    const documentId: string = listed.body.data[0].id;
    const document = await callAs(receiver.liveKey, `/v1/documents/${documentId}?company_id=${receiver.companyId}`, {
      host: LIVE,
    });
    expect(document.body.received).toMatchObject({
      source: 'peppol',
      sender_id: OXALIS_BUYER,
      access_point: OXALIS_SEAT,
      as4_message_id: messageId,
    });

    // The MLS our SBDH reader found asked for goes to Oxalis' service provider participant.
    const mls = await until(
      'our MLS at Oxalis',
      // From our service provider participant (0242:000001) to Oxalis': only our answers to Oxalis' sends go there.
      async () =>
        (await oxalisArrivals(inbound())).find(
          (arrival) => arrival.receiver === '0242_000003' && arrival.sender === '0242_000001',
        ),
      (found) => found !== undefined,
      90_000,
    );
    // AB: the message was received and is being processed (MLS 1.0).
    expect(mls!.sbd).toMatch(/<cbc:ResponseCode>AB<\/cbc:ResponseCode>/);

    const response = await callAs(
      receiver.liveKey,
      `/v1/documents/${documentId}/responses?company_id=${receiver.companyId}`,
      { host: LIVE, method: 'POST', body: { code: 'AP' } },
    );
    expect(response.status).toBe(202);
    await until(
      'our Invoice Response at Oxalis',
      async () =>
        (await oxalisArrivals(inbound())).find(
          (arrival) => arrival.receiver === OXALIS_BUYER.replace(':', '_') && arrival.sbd.includes('invoice_response'),
        ),
      (found) => found !== undefined,
      90_000,
    );
  }, 240_000);

  it('when Oxalis sends one message again (its retry) and twice at once, then each gets a receipt and one document is filed', async () => {
    const target = await ourEndpoint();
    const proxy = await recordingProxy(target.url);
    try {
      const ubl = fromOxalisBuyer(receiver.peppolId);
      const routing = routingOf(ubl);
      const setup = await oxalisHome(
        await ensureTool(loadStackConfig().TOOLS_DIR, PEPPOL_OXALIS, () => undefined),
        path.join(workDir, 'oxalis-retry'),
        {
          keystore: pki().oxalisKeystore,
          trustedCas: [pki().ca],
          truststore: pki().truststoreJks,
        },
      );
      const first = await sendByOxalis(
        setup,
        standardBusinessDocument(ubl, routing, { instanceId: randomUUID(), createdAt: new Date() }),
        {
          url: proxy.url,
          certificate: target.certificate,
        },
      );
      expect(proxy.recorded).toHaveLength(1);
      const { headers, body } = proxy.recorded[0]!;
      const again = () =>
        fetch(target.url, { method: 'POST', headers: { 'Content-Type': headers['content-type']! }, body });
      const answers = [await again(), ...(await Promise.all([again(), again()]))];
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(await answer.text()).toContain('Receipt');
      }
      const filed = await until(
        'the message filed',
        () =>
          withStore((store) => store.documents.find({ 'received.as4_message_id': first.messageId }, { _id: 1 }).lean()),
        (rows) => rows.length > 0,
      );
      expect(filed).toHaveLength(1);
      expect(await withStore((store) => store.receivedMessages.countDocuments({ message_id: first.messageId }))).toBe(
        1,
      );
    } finally {
      await proxy.close();
    }
  }, 180_000);

  it('when a message comes signed with a certificate outside the AP CA, then our access point refuses it with the AS4 error and files nothing', async () => {
    const ubl = fromOxalisBuyer(receiver.peppolId);
    const setup = await oxalisHome(
      await ensureTool(loadStackConfig().TOOLS_DIR, PEPPOL_OXALIS, () => undefined),
      path.join(workDir, 'oxalis-outside'),
      {
        keystore: pki().outsideKeystore,
        // Oxalis must accept its own certificate to start at all, and ours to send to us.
        trustedCas: [pki().ca, pki().outsideCa],
        truststore: pki().truststoreJks,
      },
    );
    const target = await ourEndpoint();
    const proxy = await recordingProxy(target.url);
    const refused = await sendByOxalis(
      setup,
      standardBusinessDocument(ubl, routingOf(ubl), { instanceId: randomUUID(), createdAt: new Date() }),
      { ...target, url: proxy.url },
    )
      .then(
        () => undefined,
        (err: unknown) => err,
      )
      .finally(() => proxy.close());
    expect(refused).toBeInstanceOf(OxalisSendError);
    // The signal the profile names for a sender that cannot be authenticated (ebMS 3.0, 6.7.1).
    expect(proxy.recorded.map((exchange) => /errorCode="(EBMS:\d{4})"/.exec(exchange.answer)?.[1])).toEqual([
      'EBMS:0101',
    ]);
    // Oxalis reports the AS4 error our access point answered (EBMS:0101 FailedAuthentication) by its description.
    expect((refused as Error).message).toContain('Sending access point certificate CN=POX000009');
    expect((refused as Error).message).toContain('does not chain to a trusted CA');
    expect(await withStore((store) => store.receivedMessages.countDocuments({ access_point: 'POX000009' }))).toBe(0);
  }, 120_000);
});
