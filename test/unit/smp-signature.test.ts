import { X509Certificate } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { SignedXml } from 'xml-crypto';

import type { TrustAnchors } from '../../domain/peppol/certificate-trust';
import { BIS_BILLING_INVOICE, BIS_BILLING_PROCESS } from '../../domain/peppol/capabilities';
import { parseServiceMetadata } from '../../domain/peppol/smp';
import { serviceMetadataXml } from '../../domain/peppol/smp-publishing';
import { readSmpSigner, signServiceMetadata, verifyServiceMetadata } from '../../platform/peppol/smp-signature';
import { DAY, issuedBy, testCa, type TestCertificate } from '../support/test-pki';

/**
 * SMP signatures (reference C.7, receiving.md 2.4): written in the form
 * phoss-SMP writes, and checked as a sender must: signature valid, over the
 * whole document, by a certificate a trusted CA issued, valid now.
 */

const participant = { scheme: 'iso6523-actorid-upis', value: '0208:0123456749' };
const endpoint = (certificate: string) => ({
  url: 'https://ap.example.com/as4',
  certificate,
  description: 'Example AP',
  technicalContactUrl: 'mailto:support@example.com',
});

let ca: TestCertificate;
let otherCa: TestCertificate;
let smp: TestCertificate;
let trust: TrustAnchors;
let unsigned: string;

beforeAll(async () => {
  ca = await testCa('Test SMP CA');
  otherCa = await testCa('Another CA');
  smp = await issuedBy(ca, 'SMP test');
  trust = { setting: 'PEPPOL_SMP_CA', certificates: [new X509Certificate(ca.certificate)] };
  unsigned = serviceMetadataXml(participant, BIS_BILLING_INVOICE, [BIS_BILLING_PROCESS], endpoint(smp.certificate));
});

describe('signing SMP service metadata', () => {
  it('when metadata is signed, then it carries one enveloped signature in the Peppol form and still reads as the same metadata', () => {
    const signed = signServiceMetadata(unsigned, smp);
    expect(signed).toMatch(
      /<ds:CanonicalizationMethod Algorithm="http:\/\/www\.w3\.org\/TR\/2001\/REC-xml-c14n-20010315"\/>/,
    );
    expect(signed).toMatch(
      /<ds:SignatureMethod Algorithm="http:\/\/www\.w3\.org\/2001\/04\/xmldsig-more#rsa-sha256"\/>/,
    );
    expect(signed).toMatch(
      /<ds:Reference URI=""><ds:Transforms><ds:Transform Algorithm="http:\/\/www\.w3\.org\/2000\/09\/xmldsig#enveloped-signature"\/><\/ds:Transforms><ds:DigestMethod Algorithm="http:\/\/www\.w3\.org\/2001\/04\/xmlenc#sha256"\/>/,
    );
    expect(signed).toMatch(/<ds:KeyInfo><ds:X509Data><ds:X509Certificate>MII/);
    expect(signed).toMatch(/<\/ds:Signature><\/SignedServiceMetadata>$/);
    expect(parseServiceMetadata(signed)).toEqual(parseServiceMetadata(unsigned));
  });

  it('when the signer is read from files, then a key that is not the certificate’s is refused, naming both files', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'smp-signer-'));
    const files = {
      certificate: path.join(dir, 'smp.pem'),
      key: path.join(dir, 'smp-key.pem'),
      otherKey: path.join(dir, 'other-key.pem'),
    };
    await writeFile(files.certificate, smp.certificate);
    await writeFile(files.key, smp.privateKey);
    await writeFile(files.otherKey, otherCa.privateKey);
    expect(readSmpSigner(files.certificate, files.key)).toEqual(smp);
    expect(() => readSmpSigner(files.certificate, files.otherKey)).toThrow(
      `the SMP signing key ${files.otherKey} does not belong to the certificate ${files.certificate}`,
    );
    expect(() => readSmpSigner(path.join(dir, 'missing.pem'), files.key)).toThrow(
      /the SMP signing certificate .*missing\.pem cannot be read/,
    );
  });
});

describe('verifying SMP service metadata', () => {
  const now = () => new Date();

  it('when the metadata is signed by a certificate the trusted CA issued, then it is verified, naming the signer', () => {
    expect(verifyServiceMetadata(signServiceMetadata(unsigned, smp), trust, now())).toEqual({
      verified: true,
      signerSubject: 'CN=SMP test',
      signerValidTo: expect.any(Date),
    });
  });

  it('when a value was changed after signing (the endpoint address), then it is not verified: the document was changed', () => {
    const tampered = signServiceMetadata(unsigned, smp).replace(
      'https://ap.example.com/as4',
      'https://attacker.example.com/as4',
    );
    expect(verifyServiceMetadata(tampered, trust, now())).toEqual({
      verified: false,
      signerSubject: 'CN=SMP test',
      problem: 'the document was changed after it was signed (its digest does not match)',
    });
  });

  it('when the signature value was changed, then it is not verified', () => {
    const signed = signServiceMetadata(unsigned, smp);
    const value = /<ds:SignatureValue>([^<]+)</.exec(signed)![1]!;
    const flipped = value.startsWith('A') ? `B${value.slice(1)}` : `A${value.slice(1)}`;
    const forged = signed.replace(value, flipped);
    expect(verifyServiceMetadata(forged, trust, now())).toMatchObject({
      verified: false,
      problem: expect.stringMatching(/^the signature does not verify/),
    });
  });

  it('when the signature references another node than the whole document (signature wrapping), then it is refused, though its digest and signature value match', () => {
    // A genuine signature over the ServiceMetadata element by its Id, then a forged ServiceMetadata put first, where a reader looks.
    const byId = new SignedXml({
      privateKey: smp.privateKey,
      publicCert: smp.certificate,
      signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      canonicalizationAlgorithm: 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315',
    });
    byId.addReference({
      xpath: "//*[local-name(.)='ServiceMetadata']",
      transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature'],
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    });
    byId.computeSignature(unsigned, { prefix: 'ds', location: { reference: '/*', action: 'append' } });
    const signed = byId.getSignedXml();
    const forgedMetadata = /<ServiceMetadata[\s\S]*<\/ServiceMetadata>/
      .exec(unsigned)![0]
      .replace('https://ap.example.com/as4', 'https://attacker.example.com/as4');
    const wrapped = signed.replace('<ServiceMetadata Id=', `${forgedMetadata}<ServiceMetadata Id=`);

    // The referenced node is intact, so its digest matches; a reader would see the forged endpoint.
    expect(parseServiceMetadata(wrapped)).toMatchObject({
      processes: [{ endpoints: [{ address: 'https://attacker.example.com/as4' }] }],
    });

    expect(verifyServiceMetadata(wrapped, trust, now())).toEqual({
      verified: false,
      problem: expect.stringMatching(/^its reference is URI="#.+", not the whole document \(URI=""\)$/),
    });
  });

  it('when a second signature or one placed inside the metadata is found, then it is refused', () => {
    const signed = signServiceMetadata(unsigned, smp);
    const signature = /<ds:Signature[\s\S]*<\/ds:Signature>/.exec(signed)![0];
    const twice = signed.replace('</SignedServiceMetadata>', `${signature}</SignedServiceMetadata>`);
    expect(verifyServiceMetadata(twice, trust, now())).toEqual({
      verified: false,
      problem: 'it has 2 ds:Signature elements, not one',
    });
    const inside = signed.replace(signature, '').replace('</ServiceMetadata>', `${signature}</ServiceMetadata>`);
    expect(verifyServiceMetadata(inside, trust, now())).toEqual({
      verified: false,
      problem: 'its ds:Signature is not a child of SignedServiceMetadata',
    });
  });

  it('when the signer was issued by a CA that is not trusted, then it is not verified, naming the signer and its issuer', async () => {
    const stranger = await issuedBy(otherCa, 'Stranger SMP');
    expect(verifyServiceMetadata(signServiceMetadata(unsigned, stranger), trust, now())).toEqual({
      verified: false,
      signerSubject: 'CN=Stranger SMP',
      problem:
        'its signer CN=Stranger SMP is not trusted: it is not issued by a CA in PEPPOL_SMP_CA (its issuer is CN=Another CA)',
    });
  });

  it('when the signer was issued by a CA of the trusted name but another key, then it is not verified', async () => {
    const impostorCa = await testCa('Test SMP CA');
    const impostor = await issuedBy(impostorCa, 'SMP test');
    expect(verifyServiceMetadata(signServiceMetadata(unsigned, impostor), trust, now())).toMatchObject({
      verified: false,
      problem: expect.stringContaining('is not issued by a CA in PEPPOL_SMP_CA'),
    });
  });

  it('when the signer certificate has expired, then it is not verified, saying since when', async () => {
    const to = new Date(Date.now() - DAY);
    const expired = await issuedBy(ca, 'Expired SMP', { from: new Date(Date.now() - 400 * DAY), to });
    expect(verifyServiceMetadata(signServiceMetadata(unsigned, expired), trust, now())).toMatchObject({
      verified: false,
      signerSubject: 'CN=Expired SMP',
      problem: expect.stringMatching(/^its signer CN=Expired SMP is not trusted: it expired on \d{4}-/),
    });
  });

  it('when no SMP CA is configured, then nothing is verified and the problem says so', () => {
    const unset: TrustAnchors = { setting: 'PEPPOL_SMP_CA', problem: 'PEPPOL_SMP_CA is not set' };
    expect(verifyServiceMetadata(signServiceMetadata(unsigned, smp), unset, now())).toEqual({
      verified: false,
      signerSubject: 'CN=SMP test',
      problem: 'its signer CN=SMP test is not trusted: PEPPOL_SMP_CA is not set',
    });
  });

  it('when the metadata is not signed at all, then it is not verified', () => {
    expect(verifyServiceMetadata(unsigned, trust, now())).toEqual({
      verified: false,
      problem: 'it is not signed (no ds:Signature)',
    });
  });
});
