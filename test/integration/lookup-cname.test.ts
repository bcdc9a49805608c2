import { BIS_BILLING_CREDIT_NOTE, BIS_BILLING_INVOICE } from '../../domain/peppol/capabilities';
import { dnsLookupView } from '../../api/contract/views/lookup';
import { smlCnameDnsName, smlDnsName } from '../../domain/peppol/sml';
import {
  discoverParticipant,
  peppolLookup,
  receivingEndpoint,
  type Discovery,
  type PeppolLookupOptions,
} from '../../platform/peppol/lookup';
import { peppolTrust } from '../../platform/peppol/trust';
import { sharedStack } from '../support/test-stack';

/**
 * Participant discovery by the legacy SML scheme (PEPPOL_SML_LOOKUP=cname)
 * against the shared stack's Peppol network stand-in: its DNS publishes the
 * static participants both ways, and its SMP, which cannot listen on port 80,
 * is named by PEPPOL_SML_CNAME_SMP_PORT. The SMP's legacy name is known to the
 * stand-in's DNS only, so finding a participant also shows that the SMP
 * request resolved its host there.
 */

const REGISTERED = '0208:0987654394';
const UNREGISTERED = '0208:0677424046';

function lookupBy(smlLookup: PeppolLookupOptions['smlLookup']) {
  const { peppol } = sharedStack();
  return peppolLookup({
    zone: peppol.zone,
    smlLookup,
    cnameSmpPort: Number(new URL(peppol.smp).port),
    dnsServer: peppol.dnsServer,
    smpAddresses: { allowPrivate: true },
    httpSmp: true,
    trust: peppolTrust({ PEPPOL_SMP_CA: peppol.ca, PEPPOL_AP_CA: peppol.ca }),
  });
}

/** What a sender takes from a discovery: each endpoint, by document type, and whether it is usable. */
const endpointsOf = (discovery: Discovery) =>
  discovery.found
    ? discovery.capabilities.map(({ documentType, endpointUrl, problems }) => ({ documentType, endpointUrl, problems }))
    : [];

describe('participant discovery by the legacy SML scheme on the local Peppol network', () => {
  it('when a participant is registered, then its B- name leads to the stand-in SMP, which lists its endpoints, the same the NAPTR scheme finds', async () => {
    const { peppol } = sharedStack();
    const dnsName = smlCnameDnsName(REGISTERED, peppol.zone);
    const smpUrl = `http://${dnsName}:${new URL(peppol.smp).port}`;

    const legacy = await discoverParticipant(lookupBy('cname'), REGISTERED, new Date());
    expect(legacy).toMatchObject({
      found: true,
      sml: { dnsName, records: [], smlLookup: 'cname', smpUrl },
      smp: { url: `${smpUrl}/iso6523-actorid-upis%3A%3A${encodeURIComponent(REGISTERED)}` },
    });
    expect(endpointsOf(legacy).slice(0, 2)).toEqual(
      [BIS_BILLING_INVOICE, BIS_BILLING_CREDIT_NOTE].map((documentType) => ({
        documentType,
        endpointUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/as4$/),
        problems: [],
      })),
    );

    const naptr = await discoverParticipant(lookupBy('naptr'), REGISTERED, new Date());
    expect(naptr).toMatchObject({
      found: true,
      sml: { dnsName: smlDnsName(REGISTERED, peppol.zone), smpUrl: peppol.smp },
    });
    expect(endpointsOf(naptr)).toEqual(endpointsOf(legacy));
  });

  it('when a sender asks where to deliver an invoice, then the legacy scheme gives the access point and certificate the NAPTR scheme gives', async () => {
    const endpoint = await receivingEndpoint(lookupBy('cname'), REGISTERED, 'invoice', new Date());
    expect(endpoint).toMatchObject({
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/as4$/),
      certificate: expect.any(String),
    });
    expect(endpoint).toEqual(await receivingEndpoint(lookupBy('naptr'), REGISTERED, 'invoice', new Date()));
  });

  it('when a participant is not registered, then its B- name does not exist (NXDOMAIN) and discovery says so', async () => {
    const { peppol } = sharedStack();
    const dnsName = smlCnameDnsName(UNREGISTERED, peppol.zone);
    const discovery = await discoverParticipant(lookupBy('cname'), UNREGISTERED, new Date());
    expect(discovery).toEqual({
      found: false,
      sml: {
        participant: { scheme: 'iso6523-actorid-upis', value: UNREGISTERED },
        zone: peppol.zone,
        dnsName,
        records: [],
        smlLookup: 'cname',
      },
      why: `the SML's name ${dnsName} does not resolve`,
    });
  });

  it('when the lookup API shows the SML step, then it says the legacy scheme was asked and whether the name resolved', async () => {
    const registered = dnsLookupView(await lookupBy('cname').sml(REGISTERED));
    expect(registered).toMatchObject({
      registered: true,
      sml: { query_type: 'CNAME', records: [], record: null },
      smp_url: expect.stringMatching(/^http:\/\/b-/i),
    });
    expect(dnsLookupView(await lookupBy('cname').sml(UNREGISTERED))).toMatchObject({
      registered: false,
      smp_url: null,
      summary: expect.stringContaining('does not resolve'),
    });
  });
});
