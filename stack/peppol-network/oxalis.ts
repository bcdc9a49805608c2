import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { LOCAL_PKI_PASSWORD } from '../peppol-access-points';

/**
 * Oxalis-AS4 on the local Peppol network stand-in: an access point none of
 * this project's code wrote (Apache CXF and WSS4J, where ours and the
 * stand-in's are phase4), with its own certificate from the local test PKI
 * (seat POX000003) and its own participants published by the stand-in SMP.
 * Its inbound server keeps what arrives under `<inbound>/<receiver>/<sender>/
 * <message id>.doc.xml` (the SBD as sent) beside a signed evidence file; its
 * command-line sender sends one SBD to an endpoint it is given (no lookup).
 *
 * Oxalis reads its settings from OXALIS_HOME/conf/oxalis.conf and chooses a
 * "mode" (which CAs it trusts) by the one that accepts its own certificate:
 * the jar's reference.conf (oxalis/) names the LOCALNET mode, whose certificate
 * recipe and trust store are written here, per data directory, into a
 * directory put on the class path.
 */

/**
 * The seat of Oxalis' certificate in the local test PKI (TestPki.java): its service provider id is 000003.
 * @internal
 */
export const OXALIS_SEAT = 'POX000003';

/** Oxalis' server as Oxalis wires it, on the one address it is given (oxalis/src: Oxalis' own Main listens on every interface). */
const SERVER_MAIN = 'einvoice.oxalis.LocalServer';
/** Where the stand-in's Oxalis listens: this machine only, as every component of the embedded stack. */
const SERVER_ADDRESS = '127.0.0.1';
const SENDER_MAIN = 'eu.sendregning.oxalis.Main';
/** Peppol AS4 as Oxalis names the transport profile. */
const AS4_PROFILE = 'peppol-transport-as4-v2_0';

export interface OxalisSetup {
  /** OXALIS_HOME. */
  home: string;
  /** The class path: the jar, and the directory holding the LOCAL mode's recipe and trust store. */
  classpath: string;
}

/** The DER of a PEM certificate, base64, as Oxalis' certificate recipe holds it. */
async function derBase64(pemFile: string): Promise<string> {
  return new X509Certificate(await readFile(pemFile)).raw.toString('base64');
}

/**
 * Oxalis' certificate recipe (vefa validator XML): a peer's certificate must be in date, issued (not
 * self-signed) and chain to one of `cas`. No revocation: the local test PKI has no CRL or OCSP responder.
 */
async function certificateRecipe(cas: string[]): Promise<string> {
  const certificates = (await Promise.all(cas.map(derBase64)))
    .map((der) => `<Certificate>${der}</Certificate>`)
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<ValidatorRecipe xmlns="http://oxalis.network/xsd/certvalidator/1.0" name="local-network" version="local">
  <Validator><Expiration/><Signing type="PUBLIC_SIGNED"/><Chain><RootBucketReference>root</RootBucketReference><IntermediateBucketReference>intermediate</IntermediateBucketReference></Chain></Validator>
  <Validator name="AP" timeout="10"><ValidatorReference>default</ValidatorReference></Validator>
  <Validator name="SMP" timeout="10"><ValidatorReference>default</ValidatorReference></Validator>
  <CertificateBucket name="root">${certificates}</CertificateBucket>
  <CertificateBucket name="intermediate"></CertificateBucket>
</ValidatorRecipe>
`;
}

/**
 * Writes an Oxalis home under `dir`: its key store (JKS, key `ap`), the CAs whose certificates it trusts in
 * peers (PEM files; its own certificate's must be among them, or Oxalis finds no mode and will not start), the
 * trust store that checks signatures (JKS), and, for a server, its port and where it keeps what arrives.
 */
export async function oxalisHome(
  jar: string,
  dir: string,
  options: {
    keystore: string;
    trustedCas: string[];
    truststore: string;
    server?: { port: number; inboundDir: string };
  },
): Promise<OxalisSetup> {
  const home = path.join(dir, 'home');
  const classes = path.join(dir, 'classpath', 'local-network');
  await mkdir(path.join(home, 'conf'), { recursive: true });
  await mkdir(classes, { recursive: true });
  await writeFile(path.join(classes, 'pki.xml'), await certificateRecipe(options.trustedCas));
  await copyFile(options.truststore, path.join(classes, 'truststore.jks'));
  const conf = [
    `oxalis.keystore { path = ${JSON.stringify(options.keystore)}, password = ${JSON.stringify(LOCAL_PKI_PASSWORD)}, key.alias = ap, key.password = ${JSON.stringify(LOCAL_PKI_PASSWORD)} }`,
    `oxalis.path.inbound = ${JSON.stringify(options.server?.inboundDir ?? path.join(dir, 'inbound'))}`,
    ...(options.server ? [`oxalis.jetty.port = ${options.server.port}`] : []),
    // A receiving access point that does not answer ends an attempt, as ours does (AS4_SEND_TIMEOUT).
    'oxalis.http.timeout.connect = 10000',
    'oxalis.http.timeout.read = 30000',
  ];
  await writeFile(path.join(home, 'conf', 'oxalis.conf'), `${conf.join('\n')}\n`);
  return { home, classpath: [jar, path.dirname(classes)].join(path.delimiter) };
}

/** The command that runs Oxalis' inbound server on 127.0.0.1 (AS4 at `/as4`, `/status` answering when it is up). */
export function oxalisServerCommand(setup: OxalisSetup): { args: string[]; env: Record<string, string> } {
  return { args: ['-Xmx256m', '-cp', setup.classpath, SERVER_MAIN, SERVER_ADDRESS], env: { OXALIS_HOME: setup.home } };
}

export class OxalisSendError extends Error {
  override name = 'OxalisSendError';
  constructor(
    message: string,
    /** Everything Oxalis printed. */
    readonly output: string,
  ) {
    super(message);
  }
}

export interface OxalisSent {
  /** The AS4 message id Oxalis gave it, and the receipt's (its id and time), from the evidence Oxalis kept. */
  messageId: string;
  receiptMessageId: string;
  receiptTimestamp: string;
  /** What Oxalis printed, for a person. */
  output: string;
}

/** The AS4 receipt inside the evidence Oxalis writes for a transmission (base64 in its OriginalReceipt). */
function receiptOf(evidence: string): { messageId: string; receiptMessageId: string; receiptTimestamp: string } {
  const receipt = Buffer.from(/OriginalReceipt[^>]*>([^<]+)</.exec(evidence)?.[1] ?? '', 'base64').toString('utf8');
  const element = (name: string) => new RegExp(`<(?:[\\w-]+:)?${name}>([^<]+)<`).exec(receipt)?.[1] ?? '';
  return {
    messageId: element('RefToMessageId'),
    receiptMessageId: element('MessageId'),
    receiptTimestamp: element('Timestamp'),
  };
}

/**
 * Sends one SBD with Oxalis' command-line sender to the endpoint given (its URL and certificate, PEM): what a
 * lookup found. Resolves when Oxalis reports the transmission done, which it does only after it has received
 * and checked the receiving access point's signed receipt; rejects with what Oxalis said otherwise.
 */
export async function sendByOxalis(
  setup: OxalisSetup,
  sbd: string,
  endpoint: { url: string; certificate: string },
): Promise<OxalisSent> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'oxalis-send-'));
  try {
    const sbdFile = path.join(work, 'sbd.xml');
    const certificateFile = path.join(work, 'receiver.pem');
    const evidence = path.join(work, 'evidence');
    await mkdir(evidence);
    await writeFile(sbdFile, sbd);
    await writeFile(certificateFile, endpoint.certificate);
    const output = await new Promise<string>((resolve, reject) => {
      execFile(
        'java',
        [
          '-Xmx256m',
          '-cp',
          setup.classpath,
          SENDER_MAIN,
          '-f',
          sbdFile,
          '-u',
          endpoint.url,
          '--cert',
          certificateFile,
          '--protocol',
          AS4_PROFILE,
          '-e',
          evidence,
        ],
        { env: { ...process.env, OXALIS_HOME: setup.home }, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
        (err, stdout, stderr) => {
          const said = `${stdout}\n${stderr}`;
          if (err || !/Failed transmissions: 0\b/.test(said))
            reject(
              new OxalisSendError(
                `Oxalis did not deliver: ${oxalisFailure(said) ?? err?.message ?? 'no transmission reported'}`,
                said,
              ),
            );
          else resolve(said);
        },
      );
    });
    // One evidence file per transmission; its receipt names the message id Oxalis chose.
    const [file] = await readdir(evidence);
    return { ...receiptOf(file ? await readFile(path.join(evidence, file), 'utf8') : ''), output };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** The line of Oxalis' output that says why a transmission failed: an AS4 error it received, else the deepest cause it logged. */
function oxalisFailure(output: string): string | undefined {
  const lines = output.split('\n').map((line) => line.trim());
  return (
    lines.find((line) => /EBMS:\d{4}|PEPPOL:[A-Z_]+/.test(line)) ??
    lines.filter((line) => /^Caused by: |Exception: /.test(line)).at(-1)
  );
}

/** Where the stand-in's Oxalis lives in a data directory: its server's home and what arrived, and a sender's home. */
export const oxalisDirs = (dataDir: string) => {
  const dir = path.join(dataDir, 'peppol-network', 'oxalis');
  return { server: dir, inbound: path.join(dir, 'inbound'), sender: path.join(dir, 'sender') };
};

/**
 * What Oxalis' server kept: each message's SBD file under `inbound`, by receiver and sender.
 * @internal
 */
export async function oxalisArrivals(
  inboundDir: string,
): Promise<{ file: string; receiver: string; sender: string; sbd: string }[]> {
  const found: { file: string; receiver: string; sender: string; sbd: string }[] = [];
  for (const receiver of await readdir(inboundDir).catch(() => [])) {
    for (const sender of await readdir(path.join(inboundDir, receiver)).catch(() => [])) {
      for (const file of await readdir(path.join(inboundDir, receiver, sender)).catch(() => [])) {
        if (!file.endsWith('.doc.xml')) continue;
        found.push({
          file,
          receiver,
          sender,
          sbd: await readFile(path.join(inboundDir, receiver, sender, file), 'utf8'),
        });
      }
    }
  }
  return found;
}
