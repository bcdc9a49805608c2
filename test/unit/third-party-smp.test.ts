import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { TrustAnchors } from '../../domain/peppol/certificate-trust';
import { parseServiceMetadata } from '../../domain/peppol/smp';
import { SMP_1_2, verifyServiceMetadata } from '../../platform/peppol/smp-signature';

/**
 * Signed SMP answers recorded from real Peppol SMPs (production and test; see
 * test/fixtures/third-party/SOURCES.md), verified by our lookup's own check
 * against OpenPeppol's real SMP CA certificates: none of these was written
 * here. They were signed under SMP 1.2.0 (RSA-SHA1), so today's rules (SMP
 * 1.3.0, SHA-256) refuse them for that alone; under SMP 1.2.0's algorithms,
 * at a time their signers were valid, they verify, and what is tampered with,
 * expired or from the other network does not.
 */

const dir = path.join(__dirname, '..', 'fixtures', 'third-party');
const answer = (file: string) => readFileSync(path.join(dir, 'smp', file), 'utf8');
const anchors = (setting: string, ...files: string[]): TrustAnchors => ({
  setting,
  certificates: files.map((file) => new X509Certificate(readFileSync(path.join(dir, 'ca', file)))),
});

const productionSmpCa = anchors('G2 production', 'g2/Peppol_ServiceMetadataPublisher_CA.cer');
const testSmpCa = anchors('G2 test', 'g2/Peppol_Test_ServiceMetadataPublisher_CA.cer');
const g3 = anchors(
  'G3 production and test',
  'g3/PEPPOL_SERVICE_METADATA_PUBLISHER_CA-G3.pem',
  'g3/PEPPOL_SERVICE_METADATA_PUBLISHER_TEST_CA-G3.pem',
);
/** Times their signers were valid (the production signers 2019-2021, the test signer 2024-2026). */
const in2019 = new Date('2019-06-01T00:00:00Z');
const in2024 = new Date('2024-06-01T00:00:00Z');

describe('signed SMP answers of real SMPs, verified by our lookup', () => {
  it.each([
    ['signed-service-metadata2.xml', productionSmpCa, in2019, 'CN=PNO000070'],
    // Uses exclusive C14N for SignedInfo, and the smp:/wsa:/ids: prefixes on one line.
    ['signed-service-metadata3-c14n-inclusive.xml', productionSmpCa, in2019, 'CN=PNL000052'],
    // A default namespace on the root that the Signature overrides, under inclusive C14N: a known trap for verifiers.
    ['busdox-servicemetadata-0192-12345678-2.xml', testSmpCa, in2024, 'CN=POP000010'],
  ])(
    '%s verifies under SMP 1.2.0 at a time its signer was valid, and its endpoints read',
    (file, trust, at, signer) => {
      const check = verifyServiceMetadata(answer(file), trust, at, SMP_1_2);
      expect(check).toMatchObject({ verified: true, signerSubject: expect.stringContaining(signer) });
      const metadata = parseServiceMetadata(answer(file));
      if (!('processes' in metadata)) throw new Error(`${file} is a redirect`);
      expect(metadata.processes.flatMap((process) => process.endpoints).length).toBeGreaterThan(0);
    },
  );

  it.each([
    'signed-service-metadata2.xml',
    'signed-service-metadata3-c14n-inclusive.xml',
    'busdox-servicemetadata-0192-12345678-2.xml',
  ])('%s is refused today: SMP 1.3.0 asks for RSA-SHA256', (file) => {
    expect(verifyServiceMetadata(answer(file), productionSmpCa, in2019)).toMatchObject({
      verified: false,
      problem: expect.stringContaining('as Peppol SMP 1.3.0 prescribes'),
    });
  });

  it('an answer reformatted after signing is refused: its digest no longer matches', () => {
    expect(
      verifyServiceMetadata(answer('signed-service-metadata1.xml'), productionSmpCa, in2019, SMP_1_2),
    ).toMatchObject({ verified: false, problem: expect.stringContaining('digest does not match') });
  });

  it('a signer from the other network (test against production) or another generation (G2 against G3) is not trusted', () => {
    expect(
      verifyServiceMetadata(answer('busdox-servicemetadata-0192-12345678-2.xml'), productionSmpCa, in2024, SMP_1_2),
    ).toMatchObject({ verified: false, problem: expect.stringContaining('is not issued by a CA in G2 production') });
    expect(verifyServiceMetadata(answer('signed-service-metadata2.xml'), g3, in2019, SMP_1_2)).toMatchObject({
      verified: false,
      problem: expect.stringContaining('is not issued by a CA in G3'),
    });
  });

  it('a signer whose certificate has expired is not trusted: the production signers expired in 2020 and 2021', () => {
    expect(
      verifyServiceMetadata(
        answer('signed-service-metadata2.xml'),
        productionSmpCa,
        new Date('2026-11-27T00:00:00Z'),
        SMP_1_2,
      ),
    ).toMatchObject({ verified: false, problem: expect.stringContaining('expired on 2021-02-28') });
  });

  it('a changed endpoint (the signed content altered) is refused', () => {
    const altered = answer('signed-service-metadata2.xml').replace(
      'https://peppol.netedi.com/receive.aspx',
      'https://attacker.example/as2',
    );
    expect(altered).toContain('https://attacker.example/as2');
    expect(verifyServiceMetadata(altered, productionSmpCa, in2019, SMP_1_2)).toMatchObject({ verified: false });
  });
});
