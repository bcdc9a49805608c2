import { generate } from 'selfsigned';

/**
 * Certificates made in a test: a CA and certificates it issues, to sign SMP
 * answers and stand for access points without the stack's local PKI.
 */

const DAY = 86_400_000;

export interface TestCertificate {
  /** PEM. */
  certificate: string;
  /** PKCS#8 PEM. */
  privateKey: string;
}

export function testCa(commonName: string): Promise<TestCertificate> {
  return generate([{ name: 'commonName', value: commonName }], {
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate: new Date(Date.now() - DAY),
    notAfterDate: new Date(Date.now() + 365 * DAY),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  }).then((pems) => ({ certificate: pems.cert, privateKey: pems.private }));
}

/** A certificate the CA issues, valid from a day ago for a year unless other dates are given. */
export function issuedBy(
  ca: TestCertificate,
  commonName: string,
  validity: { from: Date; to: Date } = { from: new Date(Date.now() - DAY), to: new Date(Date.now() + 365 * DAY) },
): Promise<TestCertificate> {
  return generate([{ name: 'commonName', value: commonName }], {
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate: validity.from,
    notAfterDate: validity.to,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
    ],
    ca: { key: ca.privateKey, cert: ca.certificate },
  }).then((pems) => ({ certificate: pems.cert, privateKey: pems.private }));
}

export { DAY };
