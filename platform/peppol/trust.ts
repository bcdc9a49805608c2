import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';

import type { TrustAnchors } from '../../domain/peppol/certificate-trust';
import { ConfigError, type Config } from '../config';

/**
 * Which CAs participant lookups trust (domain/peppol/certificate-trust.ts): the SMP
 * CA for SMP signatures, the AP CA for access point certificates, each read
 * once at start-up from the PEM file its setting names. A setting that is
 * not set trusts nothing, and every lookup says so; a file that cannot be
 * read or holds no CA certificate stops the process.
 */

export interface PeppolTrust {
  smp: TrustAnchors;
  accessPoint: TrustAnchors;
}

function readTrustAnchors(setting: string, file: string | undefined): TrustAnchors {
  if (!file) return { setting, problem: `${setting} is not set (the CAs to check it against)` };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`${setting}=${JSON.stringify(file)}: cannot be read (${(err as Error).message})`);
  }
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  const certificates = blocks.map((block, index) => {
    try {
      return new X509Certificate(block);
    } catch (err) {
      throw new ConfigError(
        `${setting}=${JSON.stringify(file)}: certificate ${index + 1} cannot be read (${(err as Error).message})`,
      );
    }
  });
  if (!certificates.some((certificate) => certificate.ca))
    throw new ConfigError(`${setting}=${JSON.stringify(file)}: holds no CA certificate (PEM)`);
  return { setting, certificates };
}

export const peppolTrust = (config: Pick<Config, 'PEPPOL_SMP_CA' | 'PEPPOL_AP_CA'>): PeppolTrust => ({
  smp: readTrustAnchors('PEPPOL_SMP_CA', config.PEPPOL_SMP_CA),
  accessPoint: readTrustAnchors('PEPPOL_AP_CA', config.PEPPOL_AP_CA),
});
