import { randomInt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import https from 'node:https';
import path from 'node:path';

import { smlRegistration, NetworkRegistrationError } from '../../platform/peppol/network-registration';
import { localPkiFiles } from '../../stack/peppol-access-points';
import { smlRecord } from '../support/receiving';
import { sharedStack } from '../support/test-stack';

/**
 * SML registration on the shared stack: our access point registers a
 * participant under our SMP in the local network's SML through its
 * management interface (SOAP over client-certificate TLS), the SML's DNS
 * publishes it at once, and unregistering removes it. The lookup's SML step
 * (GET /v1/lookup/{id}/dns) is what sees it, as a sender would.
 */

/** Where our access point registers: its /health names the SML, our SMP ID and our SMP's URL. */
const registrationSettings = async () => {
  const health = (await (await fetch(`${sharedStack().accessPointUrl}/health`)).json()) as {
    sml: { url: string; smpId: string; smpUrl: string };
  };
  return health.sml;
};

/** A participant value of its own for each run: 0106 (KvK) takes any 8 digits. */
const newParticipant = () => `0106:${randomInt(10_000_000, 100_000_000)}`;

/** A SOAP Read of an SMP record at the stand-in SML, with or without a client certificate. */
function readSmpRecord(
  smlUrl: string,
  smpId: string,
  tls: { ca: string; cert?: string; key?: string },
): Promise<{ status?: number; body: string }> {
  const body =
    `<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body><ReadServiceMetadataPublisherService xmlns="http://busdox.org/serviceMetadata/locator/1.0/">` +
    `<ServiceMetadataPublisherID>${smpId}</ServiceMetadataPublisherID></ReadServiceMetadataPublisherService></S:Body></S:Envelope>`;
  return new Promise((resolve, reject) => {
    const request = https.request(
      `${smlUrl}/manageservicemetadata`,
      {
        method: 'POST',
        headers: {
          'Content-Type': 'text/xml; charset=utf-8',
          SOAPAction: '"http://busdox.org/serviceMetadata/ManageServiceMetadataService/1.0/:readIn"',
        },
        ...tls,
        timeout: 5_000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode, body: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

describe('SML registration through our access point, on the local Peppol network', () => {
  it('when a participant is registered, then its NAPTR record names our SMP at once; unregistered, it is gone; both can be repeated', async () => {
    const { peppol, accessPointUrl } = sharedStack();
    const settings = await registrationSettings();
    expect(settings).toEqual({
      url: peppol.sml,
      smpId: 'SMP-EINVOICE-LOCAL',
      smpUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
    });
    const participant = newParticipant();
    const sml = smlRegistration(accessPointUrl);
    expect(await smlRecord(participant)).toMatchObject({ registered: false });

    await sml.register(participant);
    const published = await smlRecord(participant);
    expect(published).toMatchObject({
      registered: true,
      smp_url: settings.smpUrl,
      sml: { record: { regexp: `!.*!${settings.smpUrl}!` } },
    });
    // A repeat (a workflow whose answer got lost) finds it registered already.
    await sml.register(participant);

    await sml.unregister(participant);
    expect(await smlRecord(participant)).toMatchObject({ registered: false });
    await sml.unregister(participant);
  });

  it('when a participant is registered by another SMP (a static participant of the stand-in), then registering it is refused for good and it keeps its SMP', async () => {
    const { peppol, accessPointUrl } = sharedStack();
    const error = await smlRegistration(accessPointUrl)
      .register('0208:0987654394')
      .then(
        () => undefined,
        (err: unknown) => err as NetworkRegistrationError,
      );
    expect(error).toBeInstanceOf(NetworkRegistrationError);
    expect(error).toMatchObject({
      permanent: true,
      message: expect.stringMatching(
        /BadRequestFault \[ERR-106\] The participant identifier \[0208:0987654394\] .* already exist/,
      ),
    });
    expect(await smlRecord('0208:0987654394')).toMatchObject({ registered: true, smp_url: peppol.smp });
  });

  it('when the access point is asked for something that is no participant value, then it answers 400 and the client calls that permanent', async () => {
    const error = await smlRegistration(sharedStack().accessPointUrl)
      .register('not-a-participant')
      .then(
        () => undefined,
        (err: unknown) => err as NetworkRegistrationError,
      );
    expect(error).toMatchObject({
      permanent: true,
      message: expect.stringMatching(/is not a Peppol participant value/),
    });
  });

  it('when a client presents no certificate, then the stand-in SML refuses it at the TLS handshake; with the SMP certificate it answers', async () => {
    const { peppol, dataDir } = sharedStack();
    const pki = localPkiFiles(path.join(dataDir, 'peppol-pki'));
    const ca = await readFile(pki.ca, 'utf8');
    // Our SMP's record exists once anything was registered.
    await smlRegistration(sharedStack().accessPointUrl).register(newParticipant());

    await expect(readSmpRecord(peppol.sml, 'SMP-EINVOICE-LOCAL', { ca })).rejects.toThrow();

    const answer = await readSmpRecord(peppol.sml, 'SMP-EINVOICE-LOCAL', {
      ca,
      cert: await readFile(pki.smpCertificate, 'utf8'),
      key: await readFile(pki.smpKey, 'utf8'),
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatch(/<(\w+:)?LogicalAddress>http:\/\/127\.0\.0\.1:\d+<\//);
    expect(answer.body).toMatch(/<(\w+:)?ServiceMetadataPublisherID>SMP-EINVOICE-LOCAL<\//);
  });
});
