import { execFile } from 'node:child_process';
import { randomUUID, X509Certificate } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { convertDocument } from '../../domain/documents/convert';
import { documentInputSchema } from '../../domain/documents/input';
import { routingOf, standardBusinessDocument } from '../../domain/peppol/envelope';
import { fullIdentifier } from '../../domain/peppol/smp';
import { As4SendError, peppolAccessPoint, sendRequest, type As4Receipt } from '../../platform/peppol/access-point';
import { loadStackConfig } from '../../stack/config';
import { ManagedProcess } from '../../stack/managed-process';
import { ACCESS_POINT_HEAP, accessPointEnvironment } from '../../stack/peppol-access-points';
import { freePort } from '../../stack/ports';
import { ensureTool, PEPPOL_ACCESS_POINT } from '../../stack/tools';
import { validFixtures } from '../fixtures/documents';
import { opsWith } from '../support/ops';
import { standInArrivals } from '../support/receiving';
import { sharedStack } from '../support/test-stack';
import { until } from '../support/until';

/**
 * Inbound AS4 on our access point: this file starts our access point with
 * its intake pointed at a small HTTP sink that stands in for the API's, and
 * the shared stack's stand-in access point sends to it through its own
 * POST /send, as a foreign access point would. Also `ops network send`,
 * which drives the stand-in from the command line.
 */

const TOKEN = 'inbound-test-token-0123456789abcdefghij';
/** Small, so an oversized payload is cheap to make. */
const MAX_INBOUND_BYTES = 64 * 1024;

interface IntakeBody {
  messageId: string;
  conversationId: string;
  senderId: string;
  receiverId: string;
  documentTypeId: string;
  processId: string;
  countryC1: string;
  fromPartyId: string;
  senderCertificate: string;
  receivedAt: string;
  sbd: string;
}

interface Arrival {
  headers: IncomingHttpHeaders;
  body: IntakeBody;
  answeredAt: number;
}

/** What the intake stand-in answers next, and after how long. */
let answer: { status: number; body: unknown; delayMs?: number } = { status: 200, body: {} };
const arrivals: Arrival[] = [];
let intake: Server;
let ours: ManagedProcess;
let workDir: string;
let as4Url: string;
/** Our access point's certificate, base64 DER, as an SMP publishes it. */
let ourCertificate: string;

const standInUrl = () => sharedStack().peppol.receivingAccessPoint;
const standIn = () => peppolAccessPoint(standInUrl(), "the stand-in's access point");

const fixture = validFixtures.find((candidate) => candidate.name === 'standard rate S, one line')!;
const converted = convertDocument(documentInputSchema.parse(fixture.body), fixture.company);
if (!converted.ok) throw new Error('the fixture no longer converts');
const invoice = converted.ubl;

function envelope(ubl: string) {
  const routing = routingOf(ubl);
  const sbd = standardBusinessDocument(ubl, routing, { instanceId: randomUUID(), createdAt: new Date() });
  return { routing, sbd };
}

/** The stand-in sends `ubl` to our access point's /as4 with this message id. */
function sendToUs(messageId: string, ubl = invoice): { sbd: string; sent: Promise<As4Receipt> } {
  const { routing, sbd } = envelope(ubl);
  const sent = standIn().send(
    sendRequest(routing, { messageId, endpoint: { url: as4Url, certificate: ourCertificate }, sbd }),
  );
  return { sbd, sent };
}

async function refusal(sent: Promise<unknown>): Promise<As4SendError> {
  const err = await sent.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(err).toBeInstanceOf(As4SendError);
  return err as As4SendError;
}

async function sentByStandIn(): Promise<
  { messageId: string; outcome: string; receiptMessageId?: string; error?: string }[]
> {
  return (await (await fetch(`${standInUrl()}/sent`)).json()) as never;
}

const newMessageId = () => `${randomUUID()}@as4-inbound-test`;

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'einvoice-as4-inbound-'));
  intake = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const { status, body, delayMs = 0 } = answer;
      setTimeout(() => {
        arrivals.push({
          headers: req.headers,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as IntakeBody,
          answeredAt: Date.now(),
        });
        res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
      }, delayMs);
    });
  });
  const intakePort = await freePort();
  await new Promise<void>((resolve) => intake.listen(intakePort, '127.0.0.1', resolve));

  const [controlPort, as4Port] = [await freePort(), await freePort()];
  as4Url = `http://127.0.0.1:${as4Port}/as4`;
  const pki = path.join(sharedStack().dataDir, 'peppol-pki');
  const jar = await ensureTool(loadStackConfig().TOOLS_DIR, PEPPOL_ACCESS_POINT, () => undefined);
  ours = new ManagedProcess('access-point-inbound', 'java', [ACCESS_POINT_HEAP, '-jar', jar, 'sender'], {
    env: {
      ...process.env,
      ...accessPointEnvironment({
        port: controlPort,
        keystore: path.join(pki, 'sender-ap.p12'),
        truststore: path.join(pki, 'truststore.p12'),
        dataDir: path.join(workDir, 'access-point'),
        inbound: { as4Port, intakeUrl: `http://127.0.0.1:${intakePort}/inbound`, intakeToken: TOKEN },
      }),
      AP_MAX_INBOUND_BYTES: String(MAX_INBOUND_BYTES),
    },
    logFile: path.join(workDir, 'access-point.log'),
  });
  ours.start();
  await until(
    'our access point answering /health',
    async () => {
      if (!ours.running) throw new Error(`our access point did not start:\n${ours.tail()}`);
      return fetch(`http://127.0.0.1:${controlPort}/health`).then(
        (response) => response.ok,
        () => false,
      );
    },
    (ready) => ready,
  );
  // The local PKI keeps our certificate in its PKCS#12 file only; keytool (beside java) reads it out.
  const { stdout } = await promisify(execFile)('keytool', [
    '-exportcert',
    '-rfc',
    '-keystore',
    path.join(pki, 'sender-ap.p12'),
    '-storetype',
    'PKCS12',
    '-storepass',
    'local-test-only',
    '-alias',
    'ap',
  ]);
  ourCertificate = stdout.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, '');
}, 120_000);

afterAll(async () => {
  await ours?.close();
  await new Promise((resolve) => intake?.close(resolve));
  await rm(workDir, { recursive: true, force: true });
});

beforeEach(() => {
  answer = { status: 200, body: { status: 'stored' } };
});

describe('inbound AS4 on our access point', () => {
  it('when a foreign access point sends a document, then the intake gets the SBD byte for byte with its routing, and the sender a receipt only after the intake answered 200', async () => {
    answer = { status: 200, body: { status: 'stored' }, delayMs: 300 };
    const messageId = newMessageId();
    const { sbd, sent } = sendToUs(messageId);
    const receipt = await sent;

    const arrival = arrivals.find((candidate) => candidate.body.messageId === messageId)!;
    expect(arrival.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(arrival.headers['content-type']).toBe('application/json');
    const { routing } = envelope(invoice);
    expect(arrival.body).toMatchObject({
      messageId,
      senderId: '0208:0123456749',
      receiverId: '0208:0987654394',
      documentTypeId: fullIdentifier(routing.documentType),
      processId: fullIdentifier(routing.process),
      countryC1: 'BE',
      fromPartyId: 'PBE000002',
    });
    expect(arrival.body.conversationId).toEqual(expect.any(String));
    expect(Buffer.from(arrival.body.sbd, 'base64').equals(Buffer.from(sbd, 'utf8'))).toBe(true);
    expect(new X509Certificate(arrival.body.senderCertificate).subject).toContain('CN=PBE000002');
    expect(Date.parse(arrival.body.receivedAt)).toBeLessThanOrEqual(arrival.answeredAt);

    expect(receipt).toMatchObject({ messageId, receiverSeat: 'PBE000001' });
    expect(Date.parse(receipt.receiptTimestamp)).toBeGreaterThanOrEqual(arrival.answeredAt);
    expect((await sentByStandIn())[0]).toMatchObject({
      messageId,
      outcome: 'delivered',
      receiptMessageId: receipt.receiptMessageId,
    });
  });

  it('when the intake answers 422 PEPPOL:NOT_SERVICED, then the sender gets EBMS:0004 with errorDetail PEPPOL:NOT_SERVICED and no receipt', async () => {
    answer = {
      status: 422,
      body: { error: 'PEPPOL:NOT_SERVICED', message: 'No company here receives for 0208:0987654394' },
    };
    const messageId = newMessageId();
    const err = await refusal(sendToUs(messageId).sent);
    expect(err.message).toMatch(/EBMS:0004 .*No company here receives for 0208:0987654394 \[PEPPOL:NOT_SERVICED\]/);
    expect(err.permanent).toBe(true);
    expect((await sentByStandIn())[0]).toMatchObject({
      messageId,
      outcome: 'rejected',
      error: expect.stringContaining('PEPPOL:NOT_SERVICED'),
    });
  });

  it('when the intake cannot store the message (503), then the sender gets EBMS:0202 DeliveryFailure asking to try again (a passing error to our own sender) and no receipt', async () => {
    answer = { status: 503, body: { error: 'database unavailable' } };
    const messageId = newMessageId();
    const err = await refusal(sendToUs(messageId).sent);
    expect(err.message).toContain('EBMS:0202');
    expect(err.permanent).toBe(false);
    expect(err.message).toContain('could not be stored by the receiving access point; try again later');
    expect(err.message).not.toContain('database unavailable');
    expect(arrivals.filter((arrival) => arrival.body.messageId === messageId)).toHaveLength(1);
  });

  it('when the same message id arrives twice, then both reach the intake and both get a receipt', async () => {
    const messageId = newMessageId();
    const first = await sendToUs(messageId).sent;
    const second = await sendToUs(messageId).sent;
    expect(arrivals.filter((arrival) => arrival.body.messageId === messageId)).toHaveLength(2);
    expect(second.receiptMessageId).not.toBe(first.receiptMessageId);
  });

  it('when the intake answers 422 MESSAGE_ID_REUSED (the id came before with another message), then the sender gets EBMS:0003 and no receipt', async () => {
    answer = {
      status: 422,
      body: { error: 'MESSAGE_ID_REUSED', message: 'Message id x was received before for a different message' },
    };
    const err = await refusal(sendToUs(newMessageId()).sent);
    expect(err.message).toMatch(/EBMS:0003 .*received before for a different message/);
    expect(err.permanent).toBe(true);
  });

  it('when a payload nests 8,000 elements deep, then the sender gets an AS4 error saying so, nothing reaches the intake, and the next message is received as usual', async () => {
    const deep = invoice.replace('</cbc:Note>', `${'<x>'.repeat(8_000)}${'</x>'.repeat(8_000)}</cbc:Note>`);
    const messageId = newMessageId();
    const err = await refusal(sendToUs(messageId, deep).sent);
    expect(err.message).toContain('EBMS:0004');
    expect(err.message).toContain('The payload nests elements deeper than 2500 levels');
    expect(arrivals.filter((arrival) => arrival.body.messageId === messageId)).toEqual([]);
    await expect(sendToUs(newMessageId()).sent).resolves.toMatchObject({ receiverSeat: 'PBE000001' });
  });

  it('when a payload carries a DOCTYPE declaration, then the sender gets an AS4 error saying so and nothing reaches the intake, as the sandbox and the validator refuse it', async () => {
    // On the payload itself (the SBD), with a parameter entity naming an external resource: what an
    // entity-expansion or external-entity attack starts with.
    const { routing, sbd } = envelope(invoice);
    const declared = sbd.replace(
      /^(<\?xml[^?]*\?>\s*)?/,
      (prolog) =>
        `${prolog}<!DOCTYPE StandardBusinessDocument [<!ENTITY % probe SYSTEM "http://127.0.0.1:9/x"> %probe;]>\n`,
    );
    expect(declared).toContain('<!DOCTYPE StandardBusinessDocument');
    const messageId = newMessageId();
    const err = await refusal(
      standIn().send(
        sendRequest(routing, { messageId, endpoint: { url: as4Url, certificate: ourCertificate }, sbd: declared }),
      ),
    );
    expect(err.message).toContain('EBMS:0004');
    expect(err.message).toContain('The payload carries a DOCTYPE declaration');
    expect(arrivals.filter((arrival) => arrival.body.messageId === messageId)).toEqual([]);
  });

  it('when an access point claims a seat its signing certificate does not carry, then the message is refused with EBMS:0101 and nothing reaches the intake', async () => {
    const pki = path.join(sharedStack().dataDir, 'peppol-pki');
    const port = await freePort();
    // A trusted certificate (CN PBE000002) speaking as another access point.
    const impostor = new ManagedProcess(
      'impostor-ap',
      'java',
      [
        ACCESS_POINT_HEAP,
        '-jar',
        await ensureTool(loadStackConfig().TOOLS_DIR, PEPPOL_ACCESS_POINT, () => undefined),
        'receiver',
      ],
      {
        env: {
          ...process.env,
          ...accessPointEnvironment({
            port,
            keystore: path.join(pki, 'receiver-ap.p12'),
            truststore: path.join(pki, 'truststore.p12'),
            dataDir: path.join(workDir, 'impostor'),
            inboxDir: path.join(workDir, 'impostor-inbox'),
          }),
          AP_TEST_CLAIMED_SEAT: 'PBE000007',
        },
        logFile: path.join(workDir, 'impostor.log'),
      },
    );
    impostor.start();
    try {
      const url = `http://127.0.0.1:${port}`;
      await until(
        'the impostor answering /health',
        async () => {
          if (!impostor.running) throw new Error(`the impostor did not start:\n${impostor.tail()}`);
          return fetch(`${url}/health`).then(
            (response) => response.ok,
            () => false,
          );
        },
        (ready) => ready,
      );
      const messageId = newMessageId();
      const { routing, sbd } = envelope(invoice);
      const err = await refusal(
        peppolAccessPoint(url, 'the impostor').send(
          sendRequest(routing, { messageId, endpoint: { url: as4Url, certificate: ourCertificate }, sbd }),
        ),
      );
      expect(err.message).toContain('EBMS:0101');
      expect(err.message).toContain(
        "PartyInfo/From/PartyId 'PBE000007' is not the seat of the signing certificate (CN=PBE000002)",
      );
      expect(arrivals.filter((arrival) => arrival.body.messageId === messageId)).toEqual([]);
    } finally {
      await impostor.close();
    }
  });

  it('when the payload is larger than AP_MAX_INBOUND_BYTES, then the sender gets EBMS:0004 saying so and nothing reaches the intake', async () => {
    const padded = invoice.replace('</cbc:IssueDate>', `</cbc:IssueDate><!-- ${'x'.repeat(MAX_INBOUND_BYTES)} -->`);
    const messageId = newMessageId();
    const err = await refusal(sendToUs(messageId, padded).sent);
    expect(err.message).toContain(`EBMS:0004`);
    expect(err.message).toContain(
      `The payload is larger than the ${MAX_INBOUND_BYTES} bytes this access point accepts`,
    );
    expect(arrivals.filter((arrival) => arrival.body.messageId === messageId)).toEqual([]);
  });

  it('when a request is too large to hold an accepted payload, then it is refused with 413 before it is read', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      // Headers only: the answer comes before any of the declared body is sent.
      const post = request(
        as4Url,
        {
          method: 'POST',
          headers: { 'Content-Type': 'multipart/related; boundary=b', 'Content-Length': String(64 * 1024 * 1024) },
        },
        (response) => {
          resolve(response.statusCode!);
          post.destroy();
        },
      );
      post.on('error', reject);
      post.flushHeaders();
    });
    expect(status).toBe(413);
  });
});

describe('ops network send', () => {
  const network = () => {
    const { dnsServer, receivingAccessPoint } = sharedStack().peppol;
    // The stack's data directory holds the local test PKI whose CA the lookup checks SMP signatures against.
    return {
      SML_DNS_PORT: dnsServer.split(':')[1]!,
      PEPPOL_RECEIVER_PORT: new URL(receivingAccessPoint).port,
      DATA_DIR: sharedStack().dataDir,
    };
  };
  const networkSend = (...args: string[]) => opsWith(network(), 'network', 'send', ...args);
  const file = async (name: string, content: string) => {
    const target = path.join(workDir, name);
    await writeFile(target, content);
    return target;
  };

  it('when a UBL file is sent to a participant, then the stand-in finds its access point through the SML and SMP, sends, and prints the receipt', async () => {
    const messageId = newMessageId();
    const result = await networkSend('0208:0987654394', await file('invoice.xml', invoice), '--message-id', messageId);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(
      /^delivered: invoice from 0208:0123456749 to 0208:0987654394 at http:\/\/127\.0\.0\.1:\d+\/as4 \(access point PBE000002\)\n/,
    );
    expect(result.stdout).toContain(`AS4 message id ${messageId}; receipt `);
    expect(await standInArrivals(messageId)).toHaveLength(1);
  });

  it.each([
    [
      'the file cannot be read',
      () => '0208:0987654394',
      () => Promise.resolve(path.join(workDir, 'missing.xml')),
      /^ops: cannot read .*missing\.xml: ENOENT/,
    ],
    [
      'the file is not UBL',
      () => '0208:0987654394',
      () => file('order.xml', '<Order xmlns="urn:example"/>'),
      /^ops: .*order\.xml cannot be sent on Peppol: the document is not a UBL Invoice or CreditNote/,
    ],
    [
      'the receiver is not registered',
      () => '0208:0677424046',
      () => file('invoice.xml', invoice),
      /^ops: The receiver 0208:0677424046 is not on the Peppol network: the SML has no Meta:SMP NAPTR record/,
    ],
    [
      'the receiver does not take the document type',
      () => '0106:12345678',
      () => file('credit-note.xml', creditNote()),
      /^ops: The receiver 0106:12345678 cannot receive BIS Billing 3\.0 credit notes on Peppol/,
    ],
    [
      'the receiving access point refuses it',
      () => '0208:0404616494',
      () => file('invoice.xml', invoice),
      /^ops: not delivered to 0208:0404616494 at .*: receiver answered with AS4 error: EBMS:0004 .*\[PEPPOL:NOT_SERVICED\]/,
    ],
  ])('when %s, then it says so in one line and exits 1', async (_case, receiver, fileOf, message) => {
    const result = await networkSend(receiver(), await fileOf());
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});

function creditNote(): string {
  const credit = validFixtures.find(
    (candidate) => candidate.name === 'credit note with invoice reference and due date',
  )!;
  const result = convertDocument(documentInputSchema.parse(credit.body), credit.company);
  if (!result.ok) throw new Error('the credit note fixture no longer converts');
  return result.ubl;
}
