import { createHash } from 'node:crypto';

/**
 * The SML step of Peppol participant discovery (reference part C.2): the DNS
 * name under which the SML publishes a participant, and the SMP base URL its
 * U-NAPTR record yields. The legacy CNAME/MD5 scheme is dead (C.4) and not
 * implemented.
 */

export const PARTICIPANT_SCHEME = 'iso6523-actorid-upis';
/** The OpenPeppol production SML zone (C.5). */
export const PRODUCTION_SML_ZONE = 'participant.sml.prod.tech.peppol.org';

const BASE32_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** RFC 4648 Base32 in lower case, without padding. */
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

/** Splits on the delimiter where it is not escaped by a backslash. */
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

/** The substitution with `\1`…`\9` filled in from the match and other escapes taken literally. */
function expand(substitution: string, match: RegExpExecArray): string {
  return substitution.replace(/\\(.)/g, (_, escaped: string) => (/[1-9]/.test(escaped) ? (match[Number(escaped)] ?? '') : escaped));
}

/**
 * Applies a NAPTR regexp field (`!pattern!substitution!flags`, RFC 3402) to
 * the name queried. As a DDDS rule the output is the expanded substitution
 * alone; in Peppol the pattern is `.*` or `^.*$`, so that is the SMP URL. The
 * result must be an http(s) URL; it is returned without a trailing slash so
 * SMP paths join with `/`.
 */
export function smpUrlFromRegexp(regexp: string, queriedName: string): { url: string } | { problem: string } {
  const delimiter = regexp[0];
  if (!delimiter || /[\d\\i]/.test(delimiter)) return { problem: `the NAPTR regexp ${JSON.stringify(regexp)} does not start with a delimiter` };
  const parts = splitUnescaped(regexp.slice(1), delimiter);
  if (parts.length !== 3 || !['', 'i'].includes(parts[2]!)) return { problem: `the NAPTR regexp ${JSON.stringify(regexp)} is not of the form !pattern!substitution!` };
  let pattern: RegExp;
  try {
    pattern = new RegExp(parts[0]!, parts[2]);
  } catch {
    return { problem: `the NAPTR regexp pattern ${JSON.stringify(parts[0])} is not a valid regular expression` };
  }
  const match = pattern.exec(queriedName);
  if (!match) return { problem: `the NAPTR regexp pattern ${JSON.stringify(parts[0])} does not match ${queriedName}` };
  const output = expand(parts[1]!, match);
  let url: URL;
  try {
    url = new URL(output);
  } catch {
    return { problem: `the NAPTR regexp yields ${JSON.stringify(output)}, which is not a URL` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { problem: `the NAPTR regexp yields ${output}, which is not an http(s) URL` };
  return { url: url.href.replace(/\/+$/, '') };
}
