import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import { StackError } from './errors';

/**
 * The two phase4 access points of the embedded stack, both from the one
 * access-point/ program: OUR sending access point (the service's, what a
 * deployment runs with a Peppol-issued certificate), and the RECEIVING
 * access point of the local Peppol network stand-in, where documents for the
 * local participants arrive. Their certificates come from a local test PKI
 * made on first start into the data directory (never committed): a test CA,
 * one certificate per access point, the stand-in SMP's signing certificate,
 * and a trust store holding the CA.
 */

/** The local test PKI's one password: it protects test keys on a development machine, nothing more. */
const LOCAL_PKI_PASSWORD = 'local-test-only';
/** An access point's heap: phase4 with in-memory managers is small. */
export const ACCESS_POINT_HEAP = '-Xmx256m';

export interface LocalPki {
  dir: string;
  /** The CA's certificate (PEM), which every certificate below chains to. */
  ca: string;
  /** Our sending access point's key and certificate (CN = its seat id). */
  senderKeystore: string;
  /** The stand-in receiving access point's. */
  receiverKeystore: string;
  /** Its certificate alone, which the stand-in SMP publishes as the participants' endpoint certificate. */
  receiverCertificate: string;
  /** The SMP's certificate (PEM) and its PKCS#8 key: the stand-in SMP signs with them. */
  smpCertificate: string;
  smpKey: string;
  truststore: string;
}

/** Where the local test PKI keeps each file in `dir`. */
export function localPkiFiles(dir: string): LocalPki {
  return {
    dir,
    ca: path.join(dir, 'ca.pem'),
    senderKeystore: path.join(dir, 'sender-ap.p12'),
    receiverKeystore: path.join(dir, 'receiver-ap.p12'),
    receiverCertificate: path.join(dir, 'receiver-ap.pem'),
    smpCertificate: path.join(dir, 'smp.pem'),
    smpKey: path.join(dir, 'smp-key.pem'),
    truststore: path.join(dir, 'truststore.p12'),
  };
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

/** The environment one access point runs with (see access-point/README). */
export function accessPointEnvironment(options: {
  port: number;
  keystore: string;
  truststore: string;
  dataDir: string;
  inboxDir?: string;
  /** Receivers the (stand-in) receiving access point refuses with a final AS4 error. */
  refusedReceivers?: string[];
  sendTimeoutMs?: number;
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
  };
}
