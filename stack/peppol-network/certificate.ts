import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { generate } from 'selfsigned';

/**
 * The local access point's certificate, which the stand-in SMP publishes:
 * made on first start into the data directory (never committed) and kept,
 * so lookups show the same certificate across restarts. Self-signed: nothing
 * here chains to the Peppol AP CA. Put another PEM certificate in the file
 * to publish that one instead.
 */

const VALIDITY_DAYS = 2 * 365;

export async function accessPointCertificate(dir: string): Promise<string> {
  const certificateFile = path.join(dir, 'ap-certificate.pem');
  try {
    return await readFile(certificateFile, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  await mkdir(dir, { recursive: true });
  const notBeforeDate = new Date();
  const pems = await generate(
    [
      // Peppol AP certificates name the seat id (P + country + 6 digits) as CN.
      { name: 'commonName', value: 'PXX000001' },
      { shortName: 'OU', value: 'Local Peppol network stand-in' },
      { name: 'organizationName', value: 'E-invoice delivery service development' },
      { name: 'countryName', value: 'BE' },
    ],
    {
      keySize: 2048,
      algorithm: 'sha256',
      notBeforeDate,
      notAfterDate: new Date(notBeforeDate.getTime() + VALIDITY_DAYS * 86_400_000),
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      ],
    },
  );
  // The key first (owner-only), the certificate last: a start interrupted in between makes both again.
  await writeFile(path.join(dir, 'ap-private-key.pem'), pems.private, { mode: 0o600 });
  await writeFile(certificateFile, pems.cert);
  return pems.cert;
}
