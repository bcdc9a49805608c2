import {
  BIS_BILLING_INVOICE,
  BIS_BILLING_PROCESS,
  PEPPOL_AS4,
  type SignatureCheck,
} from '../../domain/peppol/capabilities';
import type { Identifier, ServiceMetadata } from '../../domain/peppol/smp';
import { cachedPeppolLookup } from '../../platform/peppol/cached-lookup';
import {
  discoverParticipant,
  SmpLookupError,
  type PeppolLookup,
  type SmlAnswer,
  type SmpAnswer,
} from '../../platform/peppol/lookup';
import { DAY, issuedBy, testCa, type TestCertificate } from '../support/test-pki';

/**
 * The lookup cache of the sending worker (platform/peppol/cached-lookup.ts)
 * over a lookup that counts what it is asked, with a clock the test moves:
 * no waiting, no network.
 */

const RECEIVER = '0208:0987654394';
const SMP_URL = 'https://smp.example.com';
const participant: Identifier = { scheme: 'iso6523-actorid-upis', value: RECEIVER };
const START = Date.parse('2026-06-01T12:00:00Z');

let apCertificate: TestCertificate;
beforeAll(async () => {
  apCertificate = await issuedBy(await testCa('Test AP CA'), 'PBE000002', {
    from: new Date(START - DAY),
    to: new Date(START + 30 * DAY),
  });
});
const certificateData = () => apCertificate.certificate.replace(/-----[A-Z ]+-----|\s+/g, '');

const verified = (signerValidTo = new Date(START + 365 * DAY)): SignatureCheck => ({
  verified: true,
  signerSubject: 'CN=SMP test',
  signerValidTo,
});
const metadata = (endpoint: { expiration?: string } = {}): ServiceMetadata => ({
  kind: 'metadata',
  participant,
  documentType: BIS_BILLING_INVOICE,
  processes: [
    {
      process: BIS_BILLING_PROCESS,
      endpoints: [
        {
          transportProfile: PEPPOL_AS4,
          address: 'https://ap.example.com/as4',
          certificate: certificateData(),
          ...endpoint,
        },
      ],
    },
  ],
});

/** A lookup whose answers the test sets, counting the questions it gets; `release` holds SMP answers back. */
function countingLookup() {
  const state = {
    smlCalls: 0,
    smpCalls: 0,
    ttlSeconds: 60 as number | undefined,
    smpUrl: SMP_URL as string | undefined,
    signature: verified(),
    metadata: undefined as ServiceMetadata | undefined,
    smpFailure: undefined as Error | undefined,
    held: undefined as Promise<void> | undefined,
  };
  const lookup: PeppolLookup = {
    accessPointAddresses: { allowPrivate: false },
    accessPointTrust: { setting: 'PEPPOL_AP_CA', problem: 'not asked in these tests' },
    sml(participantValue) {
      state.smlCalls += 1;
      const answer: SmlAnswer = {
        participant: { ...participant, value: participantValue },
        zone: 'sml.test',
        dnsName: 'x.sml.test',
        records: [],
      };
      if (state.smpUrl === undefined) return Promise.resolve(answer);
      const record = {
        order: 100,
        preference: 10,
        flags: 'U',
        service: 'Meta:SMP',
        regexp: `!.*!${state.smpUrl}!`,
        replacement: '',
      };
      return Promise.resolve({
        ...answer,
        records: [record],
        record,
        smpUrl: state.smpUrl,
        ...(state.ttlSeconds !== undefined && { ttlSeconds: state.ttlSeconds }),
      });
    },
    async smp(smpUrl, asked) {
      state.smpCalls += 1;
      await state.held;
      if (state.smpFailure) throw state.smpFailure;
      const answer: SmpAnswer = {
        url: smpUrl,
        serviceGroup: { participant: asked, documentTypes: [BIS_BILLING_INVOICE] },
        services: [
          {
            documentType: BIS_BILLING_INVOICE,
            url: `${smpUrl}/x`,
            metadata: state.metadata ?? metadata(),
            signature: state.signature,
          },
        ],
      };
      return answer;
    },
  };
  return { state, lookup };
}

function cachedOver(lookup: PeppolLookup, options: { maxSeconds?: number; maxEntries?: number } = {}) {
  const clock = { now: START };
  const cached = cachedPeppolLookup(lookup, {
    maxSeconds: options.maxSeconds ?? 300,
    maxEntries: options.maxEntries ?? 100,
    now: () => clock.now,
  });
  const discover = (value = RECEIVER) => discoverParticipant(cached, value, new Date(clock.now));
  return { cached, clock, discover };
}

describe('the lookup cache of a sending worker', () => {
  it('when a receiver is looked up again within the DNS TTL, then neither the DNS nor the SMP is asked again', async () => {
    const { state, lookup } = countingLookup();
    const { clock, discover } = cachedOver(lookup);
    await discover();
    clock.now += 59_000;
    const again = await discover();
    expect(again.found).toBe(true);
    expect(state).toMatchObject({ smlCalls: 1, smpCalls: 1 });
  });

  it('when the DNS TTL has passed, then the SML is asked again, and the SMP answer is kept up to the configured maximum', async () => {
    const { state, lookup } = countingLookup();
    const { clock, discover } = cachedOver(lookup, { maxSeconds: 120 });
    await discover();
    clock.now += 60_000;
    await discover();
    expect(state).toMatchObject({ smlCalls: 2, smpCalls: 1 });
    clock.now += 60_000;
    await discover();
    expect(state).toMatchObject({ smlCalls: 3, smpCalls: 2 });
  });

  it('when the DNS TTL is longer than the configured maximum, then the maximum bounds it', async () => {
    const { state, lookup } = countingLookup();
    state.ttlSeconds = 86_400;
    const { clock, discover } = cachedOver(lookup, { maxSeconds: 30 });
    await discover();
    clock.now += 29_000;
    await discover();
    expect(state.smlCalls).toBe(1);
    clock.now += 1_000;
    await discover();
    expect(state.smlCalls).toBe(2);
  });

  it('when the maximum is 0, then nothing is kept', async () => {
    const { state, lookup } = countingLookup();
    const { discover } = cachedOver(lookup, { maxSeconds: 0 });
    await discover();
    await discover();
    expect(state).toMatchObject({ smlCalls: 2, smpCalls: 2 });
  });

  it('when the SMP signature is not verified, then the answer is never kept (and still says the endpoint cannot be used)', async () => {
    const { state, lookup } = countingLookup();
    state.signature = {
      verified: false,
      signerSubject: 'CN=SMP test',
      problem: 'the document was changed after it was signed (its digest does not match)',
    };
    const { discover } = cachedOver(lookup);
    const first = await discover();
    await discover();
    expect(state.smpCalls).toBe(2);
    expect(first.found && first.capabilities[0]!.problems[0]).toMatch(/the SMP's signature is not verified/);
  });

  it('when the SMP fails, then nothing is kept and the next lookup asks it again', async () => {
    const { state, lookup } = countingLookup();
    state.smpFailure = new SmpLookupError(SMP_URL, 'noAnswer', 'did not answer');
    const { discover } = cachedOver(lookup);
    await expect(discover()).rejects.toThrow(SmpLookupError);
    state.smpFailure = undefined;
    expect((await discover()).found).toBe(true);
    expect(state.smpCalls).toBe(2);
  });

  it('when the participant is not registered, then that is not kept: a registration made a moment later is found', async () => {
    const { state, lookup } = countingLookup();
    state.smpUrl = undefined;
    const { discover } = cachedOver(lookup);
    expect((await discover()).found).toBe(false);
    state.smpUrl = SMP_URL;
    expect((await discover()).found).toBe(true);
    expect(state.smlCalls).toBe(2);
  });

  it('when a DNS answer has no TTL (0), then it is not kept', async () => {
    const { state, lookup } = countingLookup();
    state.ttlSeconds = 0;
    const { discover } = cachedOver(lookup);
    await discover();
    await discover();
    expect(state.smlCalls).toBe(2);
  });

  it('when the sender forgets the receiver (a failed send), then the next lookup asks the DNS and the SMP afresh', async () => {
    const { state, lookup } = countingLookup();
    const { cached, discover } = cachedOver(lookup);
    await discover();
    cached.forget(RECEIVER.toUpperCase());
    await discover();
    expect(state).toMatchObject({ smlCalls: 2, smpCalls: 2 });
  });

  it('when sends to one receiver look it up at the same time, then they share one lookup', async () => {
    const { state, lookup } = countingLookup();
    let release!: () => void;
    state.held = new Promise((resolve) => (release = resolve));
    const { discover } = cachedOver(lookup);
    const all = Promise.all([discover(), discover(), discover()]);
    release();
    expect((await all).every((discovery) => discovery.found)).toBe(true);
    expect(state).toMatchObject({ smlCalls: 1, smpCalls: 1 });
  });

  it('when a lookup under way is forgotten, then its answer is not kept', async () => {
    const { state, lookup } = countingLookup();
    let release!: () => void;
    state.held = new Promise((resolve) => (release = resolve));
    const { cached, discover } = cachedOver(lookup);
    const first = discover();
    await new Promise(setImmediate);
    cached.forget(RECEIVER);
    release();
    await first;
    await discover();
    expect(state.smpCalls).toBe(2);
  });

  it('when more receivers are looked up than the cache holds, then the least recently used make room', async () => {
    const { state, lookup } = countingLookup();
    // Each receiver takes two entries (its SML and its SMP answer): four entries hold two receivers.
    const { discover } = cachedOver(lookup, { maxEntries: 4 });
    await discover('0208:1');
    await discover('0208:2');
    await discover('0208:1');
    await discover('0208:3');
    expect(state.smlCalls).toBe(3);
    await discover('0208:1');
    expect(state.smlCalls).toBe(3);
    await discover('0208:2');
    expect(state.smlCalls).toBe(4);
  });

  it('when the access point certificate expires before the maximum, then the SMP answer is kept only until then', async () => {
    const { state, lookup } = countingLookup();
    const { clock, discover } = cachedOver(lookup, { maxSeconds: 90 * 86_400 });
    state.ttlSeconds = undefined; // the SML step is asked every time; the SMP answer is what is measured
    await discover();
    clock.now += 30 * DAY - 1_000;
    await discover();
    expect(state.smpCalls).toBe(1);
    clock.now += 1_000;
    await discover();
    expect(state.smpCalls).toBe(2);
  });

  it("when the SMP signer's certificate or the service expires before the maximum, then the SMP answer is kept only until then", async () => {
    for (const [signerValidTo, expiration] of [
      [new Date(START + 60_000), undefined],
      [new Date(START + 365 * DAY), new Date(START + 60_000).toISOString()],
    ] as const) {
      const { state, lookup } = countingLookup();
      state.signature = verified(signerValidTo);
      state.metadata = metadata(expiration ? { expiration } : {});
      const { clock, discover } = cachedOver(lookup);
      await discover();
      clock.now += 59_000;
      await discover();
      expect(state.smpCalls).toBe(1);
      clock.now += 1_000;
      await discover();
      expect(state.smpCalls).toBe(2);
    }
  });
});

describe('what the sender asks of the cache', () => {
  it('tells whether anything unexpired is kept about a receiver', async () => {
    const { lookup } = countingLookup();
    const { cached, clock, discover } = cachedOver(lookup, { maxSeconds: 120 });
    expect(cached.holds(RECEIVER)).toBe(false);
    await discover();
    expect(cached.holds(RECEIVER.toUpperCase())).toBe(true);
    clock.now += 120_000;
    expect(cached.holds(RECEIVER)).toBe(false);
  });
});
