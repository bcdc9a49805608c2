import { X509Certificate } from 'node:crypto';

import type { TrustAnchors } from '../../domain/peppol/certificate-trust';
import {
  BIS_BILLING_CREDIT_NOTE,
  BIS_BILLING_INVOICE,
  BIS_BILLING_PROCESS,
  canReceive,
  capabilitiesOf,
  receiveSummary,
  type Capability,
  type SignatureCheck,
} from '../../domain/peppol/capabilities';
import {
  parseServiceGroup,
  parseServiceMetadata,
  serviceMetadataUrl,
  SmpFormatError,
  type Identifier,
} from '../../domain/peppol/smp';
import { documentTypesOf, processesFor, serviceGroupXml, serviceMetadataXml } from '../../domain/peppol/smp-publishing';
import { DAY, issuedBy, testCa, type TestCertificate } from '../support/test-pki';

/** Reading SMP 1.x answers (reference C.7) and the rule that says whether BIS Billing 3.0 documents can be sent. */

const participant: Identifier = { scheme: 'iso6523-actorid-upis', value: '0208:0123456749' };

const serviceGroup = (hrefs: string[]) => `<?xml version="1.0" encoding="UTF-8"?>
<smp:ServiceGroup xmlns:smp="http://busdox.org/serviceMetadata/publishing/1.0/" xmlns:id="http://busdox.org/transport/identifiers/1.0/">
  <id:ParticipantIdentifier scheme="iso6523-actorid-upis">0208:0123456749</id:ParticipantIdentifier>
  <smp:ServiceMetadataReferenceCollection>
    ${hrefs.map((href) => `<smp:ServiceMetadataReference href="${href}"/>`).join('\n    ')}
  </smp:ServiceMetadataReferenceCollection>
</smp:ServiceGroup>`;

interface EndpointFields {
  profile?: string;
  address?: string;
  certificate?: string;
  activation?: string;
  expiration?: string;
}

const metadata = (
  documentType: Identifier,
  process: Identifier,
  endpoint: EndpointFields,
) => `<?xml version="1.0" encoding="UTF-8"?>
<SignedServiceMetadata xmlns="http://busdox.org/serviceMetadata/publishing/1.0/" xmlns:ids="http://busdox.org/transport/identifiers/1.0/">
  <ServiceMetadata>
    <ServiceInformation>
      <ids:ParticipantIdentifier scheme="iso6523-actorid-upis">0208:0123456749</ids:ParticipantIdentifier>
      <ids:DocumentIdentifier scheme="${documentType.scheme}">${documentType.value}</ids:DocumentIdentifier>
      <ProcessList>
        <Process>
          <ids:ProcessIdentifier scheme="${process.scheme}">${process.value}</ids:ProcessIdentifier>
          <ServiceEndpointList>
            <Endpoint transportProfile="${endpoint.profile ?? 'peppol-transport-as4-v2_0'}">
              <EndpointReference xmlns="http://www.w3.org/2005/08/addressing"><Address>${endpoint.address ?? 'https://ap.example.com/as4'}</Address></EndpointReference>
              <RequireBusinessLevelSignature>false</RequireBusinessLevelSignature>
              ${endpoint.activation ? `<ServiceActivationDate>${endpoint.activation}</ServiceActivationDate>` : ''}
              ${endpoint.expiration ? `<ServiceExpirationDate>${endpoint.expiration}</ServiceExpirationDate>` : ''}
              <Certificate>${endpoint.certificate ?? ''}</Certificate>
              <ServiceDescription>Example AP</ServiceDescription>
              <TechnicalContactUrl>https://ap.example.com/contact</TechnicalContactUrl>
            </Endpoint>
          </ServiceEndpointList>
        </Process>
      </ProcessList>
    </ServiceInformation>
  </ServiceMetadata>
  <ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"/>
</SignedServiceMetadata>`;

/** Base64 DER, as an SMP publishes it. */
const published = (certificate: TestCertificate) => certificate.certificate.replace(/-----[A-Z ]+-----|\s+/g, '');

describe('SMP answers', () => {
  it('builds the service metadata URL exactly as the reference shows it (C.6)', () => {
    expect(serviceMetadataUrl('https://smp.example.com', participant, BIS_BILLING_INVOICE)).toBe(
      'https://smp.example.com/iso6523-actorid-upis%3A%3A0208%3A0123456749/services/busdox-docid-qns%3A%3Aurn%3Aoasis%3Anames%3Aspecification%3Aubl%3Aschema%3Axsd%3AInvoice-2%3A%3AInvoice%23%23urn%3Acen.eu%3Aen16931%3A2017%23compliant%23urn%3Afdc%3Apeppol.eu%3A2017%3Apoacc%3Abilling%3A3.0%3A%3A2.1',
    );
  });

  it('reads a ServiceGroup: the participant and the document type of every reference', () => {
    const group = parseServiceGroup(
      serviceGroup([
        serviceMetadataUrl('https://smp.example.com', participant, BIS_BILLING_INVOICE),
        serviceMetadataUrl('https://smp.example.com', participant, BIS_BILLING_CREDIT_NOTE),
      ]),
    );
    expect(group).toEqual({ participant, documentTypes: [BIS_BILLING_INVOICE, BIS_BILLING_CREDIT_NOTE] });
  });

  it('reads a SignedServiceMetadata: document type, process, and each endpoint with its profile, address, certificate and dates', () => {
    const read = parseServiceMetadata(
      metadata(BIS_BILLING_INVOICE, BIS_BILLING_PROCESS, {
        certificate: 'MIIB',
        activation: '2026-01-01T00:00:00Z',
        expiration: '2028-01-01T00:00:00',
      }),
    );
    expect(read).toEqual({
      kind: 'metadata',
      participant,
      documentType: BIS_BILLING_INVOICE,
      processes: [
        {
          process: BIS_BILLING_PROCESS,
          endpoints: [
            {
              transportProfile: 'peppol-transport-as4-v2_0',
              address: 'https://ap.example.com/as4',
              certificate: 'MIIB',
              activation: '2026-01-01T00:00:00Z',
              expiration: '2028-01-01T00:00:00',
            },
          ],
        },
      ],
    });
  });

  it('reads a Redirect as such', () => {
    const xml = `<SignedServiceMetadata xmlns="http://busdox.org/serviceMetadata/publishing/1.0/"><ServiceMetadata>
      <Redirect href="https://other-smp.example.com/x"><CertificateUID>SMP-UID-1</CertificateUID></Redirect>
    </ServiceMetadata></SignedServiceMetadata>`;
    expect(parseServiceMetadata(xml)).toEqual({
      kind: 'redirect',
      href: 'https://other-smp.example.com/x',
      certificateUid: 'SMP-UID-1',
    });
  });

  it.each([
    ['not well-formed XML', '<smp:ServiceGroup', /not well-formed/],
    [
      'another root',
      '<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>',
      /expected a Peppol SMP 1.x ServiceGroup/,
    ],
    [
      'an entity a DTD declares (never expanded)',
      '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
      /not well-formed/,
    ],
    [
      'a reference that names no document type',
      serviceGroup(['https://smp.example.com/elsewhere']),
      /does not end in \/services\//,
    ],
  ])('refuses %s', (_what, xml, message) => {
    expect(() => parseServiceGroup(xml)).toThrow(SmpFormatError);
    expect(() => parseServiceGroup(xml)).toThrow(message);
  });
});

describe('whether a participant can receive BIS Billing 3.0', () => {
  const now = new Date();
  const signed: SignatureCheck = {
    verified: true,
    signerSubject: 'CN=SMP test',
    signerValidTo: new Date(Date.now() + 86_400_000),
  };
  let trust: TrustAnchors;
  let valid: string;
  let expired: string;
  let stranger: string;
  beforeAll(async () => {
    const ca = await testCa('Test AP CA');
    trust = { setting: 'PEPPOL_AP_CA', certificates: [new X509Certificate(ca.certificate)] };
    valid = published(await issuedBy(ca, 'PBE000123'));
    expired = published(
      await issuedBy(ca, 'PBE000124', { from: new Date(now.getTime() - 400 * DAY), to: new Date(now.getTime() - DAY) }),
    );
    stranger = published(await issuedBy(await testCa('Another CA'), 'PBE000125'));
  });

  const capabilities = (...entries: [Identifier, EndpointFields, Identifier?, SignatureCheck?][]): Capability[] =>
    capabilitiesOf(
      entries.map(([documentType, endpoint, process, signature]) => ({
        metadata: parseServiceMetadata(metadata(documentType, process ?? BIS_BILLING_PROCESS, endpoint)),
        signature: signature ?? signed,
      })),
      now,
      trust,
    );

  it('when both document types are served by AS4 with a valid certificate, then it can receive invoices and credit notes', () => {
    const found = capabilities(
      [BIS_BILLING_INVOICE, { certificate: valid }],
      [BIS_BILLING_CREDIT_NOTE, { certificate: valid }],
    );
    expect(found.map((entry) => [entry.billingDocument, entry.problems])).toEqual([
      ['invoice', []],
      ['credit_note', []],
    ]);
    expect(found[0]!.certificate).toMatchObject({
      subject: 'CN=PBE000123',
      issuer: 'CN=Test AP CA',
      chainVerified: true,
    });
    expect(canReceive(found)).toEqual({ invoice: true, credit_note: true });
    expect(receiveSummary('0208:0123456749', found)).toBe(
      '0208:0123456749 is on Peppol and can receive BIS Billing 3.0 invoices and credit notes (AS4 at https://ap.example.com/as4).',
    );
  });

  it('when only the invoice is listed, then invoices yes, credit notes no, and the summary says why', () => {
    const found = capabilities([BIS_BILLING_INVOICE, { certificate: valid }]);
    expect(canReceive(found)).toEqual({ invoice: true, credit_note: false });
    expect(receiveSummary('0106:12345678', found)).toBe(
      '0106:12345678 is on Peppol and can receive BIS Billing 3.0 invoices (AS4 at https://ap.example.com/as4), but not credit notes (its SMP does not list the document type).',
    );
  });

  // Every row has all five columns: jest takes a test function with more parameters than the row for one awaiting `done`.
  const otherProcess: Identifier = { scheme: 'cenbii-procid-ubl', value: 'urn:peppol:bis:billing_with_response' };
  const unsigned: SignatureCheck = {
    verified: false,
    signerSubject: 'CN=SMP test',
    problem: 'the document was changed after it was signed (its digest does not match)',
  };
  it.each<[string, () => EndpointFields, Identifier, SignatureCheck, RegExp]>([
    [
      'the SMP signature is not verified',
      () => ({ certificate: valid }),
      BIS_BILLING_PROCESS,
      unsigned,
      /the SMP's signature is not verified: the document was changed after it was signed/,
    ],
    [
      'the certificate is issued by a CA that is not trusted',
      () => ({ certificate: stranger }),
      BIS_BILLING_PROCESS,
      signed,
      /the access point certificate is not trusted: it is not issued by a CA in PEPPOL_AP_CA \(its issuer is CN=Another CA\)/,
    ],
    [
      'the certificate has expired',
      () => ({ certificate: expired }),
      BIS_BILLING_PROCESS,
      signed,
      /certificate expired on/,
    ],
    ['no certificate is published', () => ({}), BIS_BILLING_PROCESS, signed, /no access point certificate/],
    [
      'the certificate is not one',
      () => ({ certificate: 'bm90IGEgY2VydGlmaWNhdGU=' }),
      BIS_BILLING_PROCESS,
      signed,
      /not a readable X.509 certificate/,
    ],
    [
      'the transport profile is not Peppol AS4 v2',
      () => ({ certificate: valid, profile: 'busdox-transport-as2-ver1p0' }),
      BIS_BILLING_PROCESS,
      signed,
      /transport profile busdox-transport-as2-ver1p0/,
    ],
    [
      'the service starts later',
      () => ({ certificate: valid, activation: new Date(now.getTime() + DAY).toISOString() }),
      BIS_BILLING_PROCESS,
      signed,
      /active only from/,
    ],
    [
      'the service has ended (a date without time zone, read as UTC)',
      () => ({ certificate: valid, expiration: '2020-01-01T00:00:00' }),
      BIS_BILLING_PROCESS,
      signed,
      /expired on 2020-01-01T00:00:00.000Z/,
    ],
    [
      'the process is not BIS Billing',
      () => ({ certificate: valid }),
      otherProcess,
      signed,
      /registered only under other processes: urn:peppol:bis:billing_with_response/,
    ],
  ])(
    'when %s, then it cannot receive the document, and the summary says why',
    (_what, endpoint, process, signature, reason) => {
      const found = capabilities(
        [BIS_BILLING_INVOICE, endpoint(), process, signature],
        [BIS_BILLING_CREDIT_NOTE, endpoint(), process, signature],
      );
      expect(canReceive(found)).toEqual({ invoice: false, credit_note: false });
      expect(receiveSummary('0208:0123456749', found)).toMatch(
        /^0208:0123456749 is on Peppol but cannot receive BIS Billing 3.0 invoices \(.+\) or credit notes \(.+\)\.$/,
      );
      expect(receiveSummary('0208:0123456749', found)).toMatch(reason);
    },
  );

  it('when no AP CA is configured, then no endpoint is usable and the problem names the setting', () => {
    const found = capabilitiesOf(
      [
        {
          metadata: parseServiceMetadata(metadata(BIS_BILLING_INVOICE, BIS_BILLING_PROCESS, { certificate: valid })),
          signature: signed,
        },
      ],
      now,
      { setting: 'PEPPOL_AP_CA', problem: 'PEPPOL_AP_CA is not set (the CAs to check it against)' },
    );
    expect(found[0]!.certificate).toMatchObject({ chainVerified: false });
    expect(found[0]!.problems).toEqual([
      'the access point certificate is not trusted: PEPPOL_AP_CA is not set (the CAs to check it against)',
    ]);
    expect(canReceive(found)).toEqual({ invoice: false, credit_note: false });
  });

  it('when a document type other than BIS Billing is listed, then it is a capability but no billing document', () => {
    const order: Identifier = {
      scheme: 'busdox-docid-qns',
      value: 'urn:oasis:names:specification:ubl:schema:xsd:Order-2::Order##urn:fdc:peppol.eu:poacc:trns:order:3::2.1',
    };
    const found = capabilities([order, { certificate: valid }]);
    expect(found).toHaveLength(1);
    expect(found[0]!.billingDocument).toBeUndefined();
    expect(canReceive(found)).toEqual({ invoice: false, credit_note: false });
  });
});

describe('what an SMP publishes', () => {
  const endpoint = {
    url: 'https://ap.example.com/as4',
    certificate: '-----BEGIN CERTIFICATE-----\nMIIB\nAAAA\n-----END CERTIFICATE-----\n',
    description: 'Example AP',
    technicalContactUrl: 'mailto:support@example.com',
  };
  const otherProcess: Identifier = { scheme: 'cenbii-procid-ubl', value: 'urn:peppol:bis:billing_with_response' };
  const services = [
    { documentType: BIS_BILLING_INVOICE, process: BIS_BILLING_PROCESS },
    { documentType: BIS_BILLING_CREDIT_NOTE, process: BIS_BILLING_PROCESS },
    { documentType: BIS_BILLING_INVOICE, process: otherProcess },
  ];

  it('when a ServiceGroup is written, then a reader finds the participant and each document type once', () => {
    const xml = serviceGroupXml('https://smp.example.com', participant, documentTypesOf(services));
    expect(parseServiceGroup(xml)).toEqual({
      participant,
      documentTypes: [BIS_BILLING_INVOICE, BIS_BILLING_CREDIT_NOTE],
    });
  });

  it('when the service metadata of a document type is written, then a reader finds each of its processes with the endpoint by Peppol AS4 and the certificate as base64 DER', () => {
    const xml = serviceMetadataXml(
      participant,
      BIS_BILLING_INVOICE,
      processesFor(services, BIS_BILLING_INVOICE),
      endpoint,
    );
    const published = {
      transportProfile: 'peppol-transport-as4-v2_0',
      address: 'https://ap.example.com/as4',
      certificate: 'MIIBAAAA',
    };
    expect(parseServiceMetadata(xml)).toEqual({
      kind: 'metadata',
      participant,
      documentType: BIS_BILLING_INVOICE,
      processes: [
        { process: BIS_BILLING_PROCESS, endpoints: [published] },
        { process: otherProcess, endpoints: [published] },
      ],
    });
  });
});
