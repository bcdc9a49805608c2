import { capabilitiesOf } from '../../domain/peppol/capabilities';
import { ExpiringCache, type Loaded } from '../../domain/expiring-cache';
import type { PeppolLookup, SmlAnswer, SmpAnswer } from './lookup';

/**
 * Participant lookups a sending process repeats, kept for a while: a send to
 * a receiver looked up seconds ago asks neither the SML's DNS nor the SMP
 * again. It wraps a PeppolLookup and keeps the same shape, so
 * discoverParticipant and receivingEndpoint run unchanged over it, and every
 * use still judges the answer now (certificate and service validity,
 * domain/peppol/capabilities.ts).
 *
 * Only answers a sender may rely on are kept, and only after they were
 * verified: an SML answer that names an SMP, for its DNS TTL; an SMP answer
 * whose every service metadata carries a verified signature, no longer than
 * the earliest expiry among its signers' and access points' certificates and
 * its services. Both at most `maxSeconds`. Failures, unregistered
 * participants and unverified answers are never kept. Lookups of one key
 * under way are shared. A sender that fails with what it was told forgets the
 * receiver, so its next try looks up afresh.
 */

export interface CachedPeppolLookup extends PeppolLookup {
  /** Whether anything is kept about the participant (value such as `0208:0123456749`). */
  holds(participantValue: string): boolean;
  /** Drops what is kept about the participant. */
  forget(participantValue: string): void;
}

export interface LookupCacheOptions {
  /** The longest any answer is kept, whatever its TTL; 0 keeps nothing. */
  maxSeconds: number;
  /** How many answers are kept at most (SML and SMP answers each count one). */
  maxEntries: number;
  /** Epoch ms; Date.now by default. */
  now?: () => number;
}

type Answer = SmlAnswer | SmpAnswer | undefined;

const participantKey = (value: string) => value.toLowerCase();
const smlKey = (value: string) => `sml ${participantKey(value)}`;
// The SMP's URL is part of the key: the SML may name another SMP for the participant tomorrow.
const smpKey = (value: string, smpUrl: string) => `smp ${participantKey(value)} ${smpUrl}`;

const aboutParticipant = (participantValue: string) => {
  const value = participantKey(participantValue);
  return (key: string) => key === smlKey(value) || key.startsWith(`smp ${value} `);
};

/** Until when an SMP answer may be relied on: never when any of its metadata is unverified or it holds none. */
function smpKeepUntil(answer: SmpAnswer | undefined, now: number, maxUntil: number): number | undefined {
  if (!answer) return undefined;
  const found = answer.services.flatMap(({ metadata, signature }) =>
    metadata && signature ? [{ metadata, signature }] : [],
  );
  if (found.length === 0 || found.length !== answer.services.filter((service) => service.metadata).length)
    return undefined;
  const ends: number[] = [maxUntil];
  for (const { signature } of found) {
    if (!signature.verified) return undefined;
    ends.push(signature.signerValidTo.getTime());
  }
  // Only the dates of what each endpoint publishes are read here; trust is judged at each use.
  for (const capability of capabilitiesOf(found, new Date(now), {
    setting: 'PEPPOL_AP_CA',
    problem: 'not judged when kept',
  })) {
    if (capability.certificate) ends.push(capability.certificate.validTo.getTime());
    if (capability.expiration) ends.push(capability.expiration.getTime());
  }
  // Something already expired (or a maximum of 0): nothing to keep.
  const until = Math.min(...ends);
  return until > now ? until : undefined;
}

export function cachedPeppolLookup(lookup: PeppolLookup, options: LookupCacheOptions): CachedPeppolLookup {
  const now = options.now ?? Date.now;
  const cache = new ExpiringCache<Answer>(options.maxEntries, now);
  const maxMs = options.maxSeconds * 1000;

  return {
    accessPointAddresses: lookup.accessPointAddresses,
    accessPointTrust: lookup.accessPointTrust,

    async sml(participantValue) {
      return (await cache.get(smlKey(participantValue), async (): Promise<Loaded<Answer>> => {
        const answer = await lookup.sml(participantValue);
        const usable = answer.smpUrl !== undefined && answer.ttlSeconds !== undefined && answer.ttlSeconds > 0;
        return usable
          ? { value: answer, keepUntil: now() + Math.min(answer.ttlSeconds! * 1000, maxMs) }
          : { value: answer };
      })) as SmlAnswer;
    },

    async smp(smpUrl, participant) {
      return (await cache.get(smpKey(participant.value, smpUrl), async (): Promise<Loaded<Answer>> => {
        const answer = await lookup.smp(smpUrl, participant);
        const loadedAt = now();
        const keepUntil = smpKeepUntil(answer, loadedAt, loadedAt + maxMs);
        return keepUntil === undefined ? { value: answer } : { value: answer, keepUntil };
      })) as SmpAnswer | undefined;
    },

    holds(participantValue) {
      return cache.holds(aboutParticipant(participantValue));
    },

    forget(participantValue) {
      cache.forget(aboutParticipant(participantValue));
    },
  };
}
