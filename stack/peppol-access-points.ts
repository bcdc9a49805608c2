import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import { StackError } from './errors';

/**
 * The two phase4 access points of the embedded stack, both from the one
 * access-point/ program: OUR access point (the service's, what a deployment
 * runs with a Peppol-issued certificate), which sends and receives, and the
 * access point of the local Peppol network stand-in, where documents for the
 * local participants arrive and which sends to ours. Their certificates come from a local test PKI
 * made on first start into the data directory (never committed): a test CA,
 * one certificate per access point, the SMP certificate, the stand-in SML's
 * TLS server certificate, and a trust store holding the CA.
 */

/** The local test PKI's one password: it protects test keys on a development machine, nothing more. */
export const LOCAL_PKI_PASSWORD = 'local-test-only';
/** An access point's heap: phase4 with in-memory managers is small. */
export const ACCESS_POINT_HEAP = '-Xmx256m';

/** The seat ids (certificate CNs) the local test PKI gives our access point and the stand-in's (TestPki.java). */
export const LOCAL_SENDER_SEAT = 'PBE000001';
export const LOCAL_RECEIVER_SEAT = 'PBE000002';

export interface LocalPki {
  dir: string;
  /** The test CA that issued every certificate below (PEM). */
  ca: string;
  /** Our sending access point's key and certificate (CN = its seat id). */
  senderKeystore: string;
  /** Its certificate alone (PEM), which our SMP publishes as our endpoint certificate. */
  senderCertificate: string;
  /** The stand-in receiving access point's. */
  receiverKeystore: string;
  /** Its certificate alone, which the stand-in SMP publishes as the participants' endpoint certificate. */
  receiverCertificate: string;
  /** The independent access point's (Oxalis, seat POX000003): a JKS key store, as Oxalis reads it, and the certificate alone. */
  oxalisKeystore: string;
  oxalisCertificate: string;
  /** An access point certificate from a CA outside the local test PKI (JKS), and that CA (PEM): what every access point must refuse. */
  outsideKeystore: string;
  outsideCa: string;
  /** The trust store holding the test CA: PKCS#12, and JKS for Oxalis. */
  truststore: string;
  truststoreJks: string;
  /** The SMP's key and certificate (PKCS#12, alias `ap`): signs SMP metadata, and is our SML client certificate. */
  smpKeystore: string;
  /** The same certificate (PEM) and its key (unencrypted PKCS#8 PEM), for Node. */
  smpCertificate: string;
  smpKey: string;
  /** The stand-in SML's TLS server certificate (for 127.0.0.1 and localhost) and its key (PEM). */
  smlServerCertificate: string;
  smlServerKey: string;
}

/** Makes the local test PKI in `dir` unless it is there already (the program does nothing then). */
export async function ensureLocalPki(jar: string, dir: string): Promise<LocalPki> {
  try {
    await promisify(execFile)('java', ['-jar', jar, 'pki', dir], { timeout: 60_000 });
  } catch (err) {
    const { stderr } = err as { stderr?: string };
    throw new StackError(`making the local test PKI in ${dir} failed: ${(stderr || (err as Error).message).trim()}`);
  }
  return localPkiFiles(dir);
}

/** Where the files of the local test PKI in `dir` are (made by ensureLocalPki). */
export function localPkiFiles(dir: string): LocalPki {
  return {
    dir,
    ca: path.join(dir, 'ca.pem'),
    senderKeystore: path.join(dir, 'sender-ap.p12'),
    senderCertificate: path.join(dir, 'sender-ap.pem'),
    receiverKeystore: path.join(dir, 'receiver-ap.p12'),
    receiverCertificate: path.join(dir, 'receiver-ap.pem'),
    oxalisKeystore: path.join(dir, 'oxalis-ap.jks'),
    oxalisCertificate: path.join(dir, 'oxalis-ap.pem'),
    outsideKeystore: path.join(dir, 'outside-ap.jks'),
    outsideCa: path.join(dir, 'outside-ca.pem'),
    truststore: path.join(dir, 'truststore.p12'),
    truststoreJks: path.join(dir, 'truststore.jks'),
    smpKeystore: path.join(dir, 'smp.p12'),
    smpCertificate: path.join(dir, 'smp.pem'),
    smpKey: path.join(dir, 'smp-key.pem'),
    smlServerCertificate: path.join(dir, 'sml-server.pem'),
    smlServerKey: path.join(dir, 'sml-server-key.pem'),
  };
}

/** The environment one access point runs with (see docs/peppol-network.md, Our access point). */
export function accessPointEnvironment(options: {
  port: number;
  keystore: string;
  truststore: string;
  dataDir: string;
  inboxDir?: string;
  /** Receivers the (stand-in) receiving access point refuses with a final AS4 error. */
  refusedReceivers?: string[];
  sendTimeoutMs?: number;
  /**
   * Where our access point registers our SMP's participants (the stand-in SML), as the SMP certificate;
   * `directoryUrl`: the Peppol Directory it tells about their business cards, with the same certificate.
   */
  sml?: { url: string; smpId: string; smpUrl: string; keystore: string; directoryUrl?: string };
  /** Our access point's receiving side: AS4 on 127.0.0.1:`as4Port`, each message posted to `intakeUrl` with `intakeToken`. */
  inbound?: { as4Port: number; intakeUrl: string; intakeToken: string };
}): Record<string, string> {
  return {
    AP_PORT: String(options.port),
    AP_KEYSTORE: options.keystore,
    AP_KEYSTORE_PASSWORD: LOCAL_PKI_PASSWORD,
    AP_KEY_ALIAS: 'ap',
    AP_KEY_PASSWORD: LOCAL_PKI_PASSWORD,
    AP_TRUSTSTORE: options.truststore,
    AP_TRUSTSTORE_PASSWORD: LOCAL_PKI_PASSWORD,
    AP_DATA_DIR: options.dataDir,
    // The local test PKI publishes no CRL or OCSP responder; chain and validity are still checked.
    AP_REVOCATION_CHECK: 'false',
    ...(options.inboxDir && { AP_INBOX_DIR: options.inboxDir }),
    ...(options.refusedReceivers?.length && { AP_REJECT_RECEIVERS: options.refusedReceivers.join(',') }),
    ...(options.sendTimeoutMs && { AP_SEND_TIMEOUT_MS: String(options.sendTimeoutMs) }),
    ...(options.sml && {
      SML_URL: options.sml.url,
      SML_SMP_ID: options.sml.smpId,
      SML_SMP_URL: options.sml.smpUrl,
      SML_SMP_IP: '127.0.0.1',
      SML_KEYSTORE: options.sml.keystore,
      SML_KEYSTORE_PASSWORD: LOCAL_PKI_PASSWORD,
      SML_KEY_ALIAS: 'ap',
      // The stand-in SML's server certificate is from the local test CA, which the JVM does not trust.
      SML_TRUSTSTORE: options.truststore,
      SML_TRUSTSTORE_PASSWORD: LOCAL_PKI_PASSWORD,
      ...(options.sml.directoryUrl && { DIRECTORY_URL: options.sml.directoryUrl }),
    }),
    ...(options.inbound && {
      AP_AS4_PORT: String(options.inbound.as4Port),
      AP_AS4_BIND: '127.0.0.1',
      AP_ENDPOINT_URL: `http://127.0.0.1:${options.inbound.as4Port}/as4`,
      AP_INBOUND_URL: options.inbound.intakeUrl,
      AP_INBOUND_TOKEN: options.inbound.intakeToken,
    }),
  };
}

/**
 * How our access point joins traces while they are exported (OTEL_EXPORTER_OTLP_ENDPOINT, which it inherits):
 * the OpenTelemetry Java agent makes a span of each HTTP request it serves, in the trace its `traceparent` header
 * names (the worker's POST /send), and passes the trace on with the calls it makes (the API's intake). Traces
 * only: metrics and logs it would export by default are not the service's.
 */
export interface AccessPointTracing {
  jvmArgs: string[];
  env: Record<string, string>;
}

export function accessPointTracing(agentJar: string): AccessPointTracing {
  return {
    jvmArgs: [`-javaagent:${agentJar}`],
    env: { OTEL_SERVICE_NAME: 'einvoice-access-point', OTEL_METRICS_EXPORTER: 'none', OTEL_LOGS_EXPORTER: 'none' },
  };
}
