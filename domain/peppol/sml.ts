import { createHash } from 'node:crypto';

/**
 * The SML step of Peppol participant discovery (reference part C.2): the DNS
 * name under which the SML publishes a participant, and the SMP base URL its
 * U-NAPTR record yields. Also the legacy BusDox scheme (C.4: a CNAME at the
 * MD5 of the participant, the SMP at that name over http), which OpenPeppol
 * has retired for its production network; it is kept for the older and
 * private networks that still publish it (PEPPOL_SML_LOOKUP=cname).
 */

export const PARTICIPANT_SCHEME = 'iso6523-actorid-upis';
/** How participant lookups ask the SML: U-NAPTR, or the legacy CNAME scheme. */
export const SML_LOOKUPS = ['naptr', 'cname'] as const;
export type SmlLookup = (typeof SML_LOOKUPS)[number];
/** The OpenPeppol production SML zone (C.5). */
export const PRODUCTION_SML_ZONE = 'participant.sml.prod.tech.peppol.org';

const BASE32_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * RFC 4648 Base32 in lower case, without padding.
 * @internal
 */
export function base32(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32_ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

/**
 * What the SML hashes: the participant value alone (`0208:0123456749`, not
 * `iso6523-actorid-upis::…`), lower-cased because participant ids are
 * case-insensitive (B.1).
 */
export const hashedText = (participantValue: string) => participantValue.toLowerCase();

/** `<base32(sha256(value))>.iso6523-actorid-upis.<zone>`, the name to query for NAPTR records. */
export function smlDnsName(participantValue: string, zone: string): string {
  const digest = createHash('sha256').update(hashedText(participantValue), 'utf8').digest();
  return `${base32(digest)}.${PARTICIPANT_SCHEME}.${zone}`;
}

/**
 * `B-<hex(md5(value))>.iso6523-actorid-upis.<zone>`, the name of the legacy
 * scheme (peppol-commons' PeppolURLProvider): the same lower-cased value as
 * the NAPTR name hashes, the hex digest in lower case.
 */
export function smlCnameDnsName(participantValue: string, zone: string): string {
  const digest = createHash('md5').update(hashedText(participantValue), 'utf8').digest('hex');
  return `B-${digest}.${PARTICIPANT_SCHEME}.${zone}`;
}

/** The legacy scheme fixes the SMP at the root of its DNS name, over http, on this port. */
export const CNAME_SMP_PORT = 80;

/** The SMP base URL of the legacy scheme; another port only for local stand-in networks (PEPPOL_SML_CNAME_SMP_PORT). */
export const cnameSmpUrl = (dnsName: string, port = CNAME_SMP_PORT) =>
  `http://${dnsName}${port === CNAME_SMP_PORT ? '' : `:${port}`}`;

/** A NAPTR record as node:dns returns it. */
export interface NaptrRecord {
  order: number;
  preference: number;
  flags: string;
  service: string;
  regexp: string;
  replacement: string;
}

/** The record that names the SMP: flag `U`, service `Meta:SMP` (both case-insensitive), lowest order, then preference. */
export function smpRecord(records: readonly NaptrRecord[]): NaptrRecord | undefined {
  return records
    .filter((record) => record.flags.toUpperCase() === 'U' && record.service.toLowerCase() === 'meta:smp')
    .sort((a, b) => a.order - b.order || a.preference - b.preference)[0];
}

/** Splits on the delimiter where it is not escaped by a backslash; escapes are kept. */
function splitUnescaped(text: string, delimiter: string): string[] {
  const parts = [''];
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (char === '\\' && i + 1 < text.length) {
      parts[parts.length - 1] += char + text[i + 1]!;
      i += 1;
    } else if (char === delimiter) {
      parts.push('');
    } else {
      parts[parts.length - 1] += char;
    }
  }
  return parts;
}

/**
 * The patterns an SML publishes: the whole name, replaced by the SMP URL. No
 * other pattern is run: the regexp comes from DNS, and a hostile one
 * (catastrophic backtracking) would stall the process that ran it.
 */
const WHOLE_NAME_PATTERNS = ['.*', '^.*$'];

/**
 * The SMP base URL of a NAPTR regexp field (RFC 3402 `!pattern!substitution!flags`,
 * any delimiter): in the forms the Peppol SML publishes, `!.*!<URL>!` and
 * `!^.*$!<URL>!`, the substitution replaces the whole name queried, so it is
 * the URL (escaped characters taken literally). Anything else gives no usable
 * SMP URL. The URL must be http(s); it is returned without a trailing slash so
 * SMP paths join with `/`.
 */
export function smpUrlFromRegexp(regexp: string): { url: string } | { problem: string } {
  const unusable = {
    problem: `the NAPTR regexp ${JSON.stringify(regexp)} is not of the form !.*!URL! or !^.*$!URL!, the forms the SML publishes`,
  };
  const delimiter = regexp[0];
  if (!delimiter || /[\d\\i]/.test(delimiter)) return unusable;
  const parts = splitUnescaped(regexp.slice(1), delimiter);
  if (parts.length !== 3 || !WHOLE_NAME_PATTERNS.includes(parts[0]!) || !['', 'i'].includes(parts[2]!)) return unusable;
  let backreference = false;
  const output = parts[1]!.replace(/\\(.)/g, (_, escaped: string) => {
    backreference ||= /\d/.test(escaped);
    return escaped;
  });
  // These patterns have no group for a backreference to name.
  if (backreference) return unusable;
  let url: URL;
  try {
    url = new URL(output);
  } catch {
    return { problem: `the NAPTR regexp yields ${JSON.stringify(output)}, which is not a URL` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { problem: `the NAPTR regexp yields ${output}, which is not an http(s) URL` };
  return { url: url.href.replace(/\/+$/, '') };
}
