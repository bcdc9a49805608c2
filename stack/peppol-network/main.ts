import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { RESPONSE_CODES } from '../../domain/peppol/invoice-response';
import { readSmpSigner } from '../../platform/peppol/smp-signature';
import { startDnsServer } from './dns-server';
import { PARTICIPANTS_FILE, readParticipants } from './registry';
import { StandInPeppolDirectory } from './peppol-directory';
import { startResponder, type ResponderOptions } from './responder';
import { SmlRegistrations } from './sml-registrations';
import { startSmlServer } from './sml-server';
import { startSmpServer } from './smp-server';

/**
 * The local Peppol network stand-in, one child of the embedded stack: the
 * SML's DNS and an SMP for the participants in participants.json, on
 * loopback, publishing the stand-in receiving access point (another child,
 * from access-point/) with its certificate as the participants' endpoint, or
 * the independent one (Oxalis, a child too, from oxalis/) for those it serves,
 * the SMP's answers signed with the local test PKI's SMP certificate; and the
 * SML's management interface (HTTPS, client certificates of the local test
 * CA), through which other SMPs (ours) register their participants, kept in
 * the --sml-registrations file; and the Peppol Directory, whose indexer takes
 * those SMPs' notices beside the SML and keeps the business cards it reads in
 * directory.json next to it. Not part of the service, and never the real
 * network.
 *
 *   node --import tsx stack/peppol-network/main.ts --zone sml.peppol.localhost \
 *     --dns-port 8053 --smp-port 8088 --ap-url http://127.0.0.1:8090/as4 --ap-certificate ./data/peppol-pki/receiver-ap.pem \
 *     --oxalis-url http://127.0.0.1:8092/as4 --oxalis-certificate ./data/peppol-pki/oxalis-ap.pem \
 *     --smp-certificate ./data/peppol-pki/smp.pem --smp-key ./data/peppol-pki/smp-key.pem \
 *     --sml-port 8087 --sml-certificate ./data/peppol-pki/sml-server.pem --sml-key ./data/peppol-pki/sml-server-key.pem \
 *     --ca ./data/peppol-pki/ca.pem --sml-registrations ./data/peppol-network/sml-registrations.json
 */

/** The command line; a required option missing is an error naming each one missing. */
function readArguments() {
  const { values } = parseArgs({
    options: {
      zone: { type: 'string' },
      'dns-port': { type: 'string' },
      'smp-port': { type: 'string' },
      'ap-url': { type: 'string' },
      'ap-certificate': { type: 'string' },
      'oxalis-url': { type: 'string' },
      'oxalis-certificate': { type: 'string' },
      'smp-certificate': { type: 'string' },
      'smp-key': { type: 'string' },
      'sml-port': { type: 'string' },
      'sml-certificate': { type: 'string' },
      'sml-key': { type: 'string' },
      ca: { type: 'string' },
      'sml-registrations': { type: 'string' },
      // The responder (responder.ts): where the stand-in access point keeps what arrived, and what to answer.
      inbox: { type: 'string' },
      'ap-control': { type: 'string' },
      'data-dir': { type: 'string' },
      respond: { type: 'string', default: 'AB' },
      seat: { type: 'string' },
    },
    strict: true,
  });
  const required = [
    'zone',
    'dns-port',
    'smp-port',
    'ap-url',
    'ap-certificate',
    'oxalis-url',
    'oxalis-certificate',
    'smp-certificate',
    'smp-key',
    'sml-port',
    'sml-certificate',
    'sml-key',
    'ca',
    'sml-registrations',
  ];
  const missing = required.filter((name) => !values[name as keyof typeof values]);
  if (missing.length > 0) throw new Error(`missing ${missing.map((name) => `--${name}`).join(', ')}`);
  return values;
}

type Arguments = ReturnType<typeof readArguments>;

/**
 * The SML's registrations and the Directory read, then the SMP, the SML's management interface and its DNS
 * started in that order, and announced.
 */
async function startNetwork(values: Arguments) {
  const participants = await readParticipants();
  const staticIds = participants.map((entry) => entry.id);
  const registrations = await SmlRegistrations.open(values['sml-registrations']!, values.zone!, staticIds);
  const directory = await StandInPeppolDirectory.open(
    path.join(path.dirname(values['sml-registrations']!), 'directory.json'),
    registrations,
  );
  // The DNS server starts last (the readiness probe asks it); the SMP's page asks it for its counts later.
  const counts: { dns?: { queriesFor(name: string): number } } = {};
  const smp = await startSmpServer({
    dnsQueriesFor: (name) => counts.dns?.queriesFor(name) ?? 0,
    directory,
    port: Number(values['smp-port']),
    participants,
    accessPointUrl: values['ap-url']!,
    accessPointCertificate: await readFile(values['ap-certificate']!, 'utf8'),
    oxalis: { url: values['oxalis-url']!, certificate: await readFile(values['oxalis-certificate']!, 'utf8') },
    signer: readSmpSigner(values['smp-certificate']!, values['smp-key']!),
  });
  // Before the DNS server, which the stack's readiness probe asks: once DNS answers, registering works too.
  const sml = await startSmlServer({
    port: Number(values['sml-port']),
    certificate: await readFile(values['sml-certificate']!, 'utf8'),
    key: await readFile(values['sml-key']!, 'utf8'),
    ca: await readFile(values.ca!, 'utf8'),
    registrations,
    directory,
    log: (line) => process.stdout.write(`${line}\n`),
  });
  const dns = await startDnsServer({
    zone: values.zone!,
    port: Number(values['dns-port']),
    participants: staticIds,
    smpUrl: smp.url,
    registrations,
  });
  counts.dns = dns;
  process.stdout.write(
    `SML (DNS, UDP) on 127.0.0.1:${dns.port} for zone ${values.zone}; SMP ${smp.url}; ` +
      `${participants.length} participants from ${PARTICIPANTS_FILE}; access point ${values['ap-url']}; ` +
      `SML management interface ${sml.url} (registrations in ${values['sml-registrations']}); Peppol Directory indexer ${sml.url}/indexer/1.0/, search ${smp.url}/stand-in/directory?q=\n`,
  );
  return { dns, smp, sml };
}

/** The responder, when the stand-in access point's inbox and the rest it needs are given; announced. */
function startAskedResponder(values: Arguments, dnsPort: number) {
  const responder =
    values.inbox && values['ap-control'] && values['data-dir'] && values.seat
      ? startResponder({
          standIn: {
            dnsServer: `127.0.0.1:${dnsPort}`,
            accessPointUrl: values['ap-control'],
            dataDir: values['data-dir'],
          },
          inboxDir: values.inbox,
          answeredFile: path.join(path.dirname(values.inbox), 'answered.txt'),
          response: responseSetting(values.respond),
          seat: values.seat,
          log: (line) => process.stdout.write(`${line}\n`),
        })
      : undefined;
  if (responder)
    process.stdout.write(
      `responder: answers every invoice and credit note in ${values.inbox} with ${values.respond} and the MLS its envelope asks for\n`,
    );
  return responder;
}

async function main(): Promise<void> {
  const values = readArguments();
  const { dns, smp, sml } = await startNetwork(values);
  const responder = startAskedResponder(values, dns.port);

  const stop = () => {
    void Promise.all([dns.close(), smp.close(), sml.close(), responder?.close()]).then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

function responseSetting(value: string): ResponderOptions['response'] {
  if (value === 'off' || (RESPONSE_CODES as readonly string[]).includes(value))
    return value as ResponderOptions['response'];
  throw new Error(`--respond ${value}: expected off or one of ${RESPONSE_CODES.join(', ')}`);
}

main().catch((err: unknown) => {
  process.stderr.write(`peppol-network: ${(err as Error).message}\n`);
  process.exit(1);
});
