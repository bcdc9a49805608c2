import { X509Certificate } from 'node:crypto';

import express from 'express';
import request from 'supertest';

import { smpRouter, type SmpDirectory } from '../../api/smp/router';
import { BIS_BILLING_CREDIT_NOTE, BIS_BILLING_INVOICE, BIS_BILLING_PROCESS } from '../../domain/peppol/capabilities';
import { parseServiceGroup, parseServiceMetadata, serviceGroupUrl, serviceMetadataUrl } from '../../domain/peppol/smp';
import { verifyServiceMetadata } from '../../platform/peppol/smp-signature';
import { issuedBy, testCa, type TestCertificate } from '../support/test-pki';

/** Our SMP server in this process, over a directory of one participant (reference C.7). */

const PUBLIC_URL = 'https://smp.example.com';
const participant = { scheme: 'iso6523-actorid-upis', value: '0208:0123456749' };

let ca: TestCertificate;
let app: express.Express;
const asked: string[] = [];

beforeAll(async () => {
  ca = await testCa('Test SMP CA');
  const [signer, accessPoint] = await Promise.all([issuedBy(ca, 'SMP test'), issuedBy(ca, 'PBE000001')]);
  const directory: SmpDirectory = {
    servicesOf: (value) => {
      asked.push(value);
      return Promise.resolve(
        value === '0208:0123456749'
          ? {
              services: [BIS_BILLING_INVOICE, BIS_BILLING_CREDIT_NOTE].map((documentType) => ({
                documentType,
                process: BIS_BILLING_PROCESS,
              })),
            }
          : undefined,
      );
    },
  };
  const endpoint = {
    url: 'https://ap.example.com/as4',
    certificate: accessPoint.certificate,
    description: 'Our AP',
    technicalContactUrl: 'mailto:peppol@example.com',
  };
  app = express().use(smpRouter({ directory, publicUrl: PUBLIC_URL, endpoint, signer }));
});

const pathOf = (url: string) => url.slice(PUBLIC_URL.length);

describe('our SMP server', () => {
  it('when the ServiceGroup is asked by the percent-encoded id, then it lists each document type by the full URL of its metadata, as text/xml', async () => {
    const response = await request(app).get(pathOf(serviceGroupUrl(PUBLIC_URL, participant)));
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(parseServiceGroup(response.text)).toEqual({
      participant,
      documentTypes: [BIS_BILLING_INVOICE, BIS_BILLING_CREDIT_NOTE],
    });
    expect(response.text).toContain(`href="${serviceMetadataUrl(PUBLIC_URL, participant, BIS_BILLING_INVOICE)}"`);
  });

  it('when the id is given unencoded and in another case, then the same participant answers, and the directory is asked by the value lower-cased', async () => {
    asked.length = 0;
    const response = await request(app).get('/ISO6523-ACTORID-UPIS::0208:0123456749');
    expect(response.status).toBe(200);
    expect(asked).toEqual(['0208:0123456749']);
  });

  it('when the service metadata of a listed document type is asked, then it answers it signed by the SMP certificate, which a sender verifies', async () => {
    const response = await request(app).get(
      pathOf(serviceMetadataUrl(PUBLIC_URL, participant, BIS_BILLING_CREDIT_NOTE)),
    );
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(parseServiceMetadata(response.text)).toMatchObject({
      participant,
      documentType: BIS_BILLING_CREDIT_NOTE,
      processes: [
        {
          process: BIS_BILLING_PROCESS,
          endpoints: [{ transportProfile: 'peppol-transport-as4-v2_0', address: 'https://ap.example.com/as4' }],
        },
      ],
    });
    const trust = { setting: 'PEPPOL_SMP_CA', certificates: [new X509Certificate(ca.certificate)] };
    expect(verifyServiceMetadata(response.text, trust, new Date())).toEqual({
      verified: true,
      signerSubject: 'CN=SMP test',
      signerValidTo: expect.any(Date),
    });
  });

  it.each([
    [
      'an unknown participant',
      serviceGroupUrl(PUBLIC_URL, { scheme: 'iso6523-actorid-upis', value: '0208:0987654394' }),
      /Unknown participant/,
    ],
    [
      'a participant of another scheme',
      serviceGroupUrl(PUBLIC_URL, { scheme: 'other-scheme', value: '0208:0123456749' }),
      /Unknown participant/,
    ],
    [
      'a document type the participant does not receive',
      serviceMetadataUrl(PUBLIC_URL, participant, { scheme: 'busdox-docid-qns', value: 'urn:example:Order' }),
      /Unknown document type/,
    ],
    [
      'a document type in another case (document type ids compare exactly)',
      serviceMetadataUrl(PUBLIC_URL, participant, {
        ...BIS_BILLING_INVOICE,
        value: BIS_BILLING_INVOICE.value.toUpperCase(),
      }),
      /Unknown document type/,
    ],
    ['a path that is no SMP resource', `${PUBLIC_URL}/`, /Not an SMP resource/],
  ])('when %s is asked, then 404', async (_what, url, body) => {
    const response = await request(app).get(pathOf(url));
    expect(response.status).toBe(404);
    expect(response.text).toMatch(body);
  });

  it.each(['PUT', 'POST', 'DELETE'] as const)(
    'when %s is sent, then 405 with Allow: the interface is read-only',
    async (method) => {
      const verb = method.toLowerCase() as 'put' | 'post' | 'delete';
      const agent = request(app);
      const response = await agent[verb](pathOf(serviceGroupUrl(PUBLIC_URL, participant))).send('<x/>');
      expect(response.status).toBe(405);
      expect(response.headers.allow).toBe('GET, HEAD');
    },
  );
});
