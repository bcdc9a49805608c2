import { isGreekTin } from '../documents/national/checksums';
import easCodes from '../data/eas-codes.json';

/**
 * Peppol participant ids, `scheme:id` with scheme a current EAS code. Where the
 * Peppol reference (part B.3) defines a format or a check digit for a scheme,
 * the id must pass it. The EAS list is data (domain/data/eas-codes.json).
 */

const currentSchemes = new Set<string>(easCodes.codes);
const MAX_VALUE_LENGTH = 130;

/**
 * The characters any participant identifier value may hold, whatever its
 * scheme. The Peppol Policy for use of Identifiers 4.x (POLICY 1) allows only
 * US-ASCII in identifier values; of that we take the printable characters
 * without the space (0x21–0x7E), and leave out XML's specials < > & " ' too:
 * the value goes verbatim into the SBDH, the UBL and SMP URLs, and no scheme
 * issues identifiers with them. Schemes with a format of their own (below)
 * are narrower still.
 */
const PARTICIPANT_VALUE_CHARACTER = '[!#-%(-;=?-~]';
const PARTICIPANT_VALUE_CHARACTERS = new RegExp(`^${PARTICIPANT_VALUE_CHARACTER}+$`);

const digits = (value: string) => [...value].map(Number);

/** Luhn over a string of digits, check digit included. */
function luhn(value: string): boolean {
  const sum = digits(value)
    .reverse()
    .reduce((total, digit, index) => {
      if (index % 2 === 0) return total + digit;
      const doubled = digit * 2;
      return total + (doubled > 9 ? doubled - 9 : doubled);
    }, 0);
  return sum % 10 === 0;
}

/** Weighted mod 11 where the check is 11 − (sum mod 11), 11 → 0 and 10 is invalid. */
function mod11(body: string, weights: number[], check: number): boolean {
  const sum = digits(body).reduce((total, digit, index) => total + digit * weights[index]!, 0);
  const expected = (11 - (sum % 11)) % 11;
  return expected !== 10 && expected === check;
}

function belgianEnterpriseNumber(value: string): boolean {
  return /^[01]\d{9}$/.test(value) && 97 - (Number(value.slice(0, 8)) % 97) === Number(value.slice(8));
}

function gln(value: string): boolean {
  if (!/^\d{13}$/.test(value)) return false;
  const all = digits(value);
  const sum = all
    .slice(0, 12)
    .reverse()
    .reduce((total, digit, index) => total + digit * (index % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === all[12];
}

function iso7064Mod97(value: string): boolean {
  let remainder = 0;
  for (const char of value) {
    const numeric = /\d/.test(char) ? char : String(char.charCodeAt(0) - 55);
    for (const digit of numeric) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

function australianBusinessNumber(value: string): boolean {
  if (!/^\d{11}$/.test(value)) return false;
  const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  const all = digits(value);
  all[0] = all[0]! - 1;
  return all.reduce((total, digit, index) => total + digit * weights[index]!, 0) % 89 === 0;
}

function siren(value: string): boolean {
  // La Poste's establishments share one SIREN and use a digit-sum rule instead of Luhn.
  if (value.startsWith('356000000')) return digits(value).reduce((a, b) => a + b, 0) % 5 === 0;
  return luhn(value);
}

interface SchemeRule {
  format: RegExp;
  describe: string;
  check?: (value: string) => boolean;
}

/** Format and check rules of part B.3; schemes not listed need only a non-empty value. */
const rules: Record<string, SchemeRule> = {
  '0208': {
    format: /^[01]\d{9}$/,
    describe: '10 digits starting with 0 or 1, mod 97 check',
    check: belgianEnterpriseNumber,
  },
  '0088': { format: /^\d{13}$/, describe: 'a 13-digit GLN with its GS1 check digit', check: gln },
  '0192': {
    format: /^\d{9}$/,
    describe: '9 digits with a mod 11 check digit',
    check: (v) => mod11(v.slice(0, 8), [3, 2, 7, 6, 5, 4, 3, 2], Number(v[8])),
  },
  '0007': { format: /^\d{10}$/, describe: '10 digits with a Luhn check digit', check: luhn },
  '0184': { format: /^\d{8}$/, describe: 'an 8-digit CVR number' },
  '0151': { format: /^\d{11}$/, describe: 'an 11-digit ABN with its mod 89 check', check: australianBusinessNumber },
  '0201': { format: /^[A-Za-z0-9]{6}$/, describe: '6 letters or digits' },
  '0210': { format: /^([A-Za-z0-9]{16}|\d{11})$/, describe: '16 letters or digits, or 11 digits' },
  '0211': {
    format: /^IT\d{11}$/,
    describe: 'IT and 11 digits with a Luhn check digit',
    check: (v) => luhn(v.slice(2)),
  },
  '0196': {
    format: /^\d{10}$/,
    describe: '10 digits with a mod 11 check digit',
    check: (v) => mod11(v.slice(0, 8), [3, 2, 7, 6, 5, 4, 3, 2], Number(v[8])),
  },
  '0183': {
    format: /^CHE\d{9}$/,
    describe: 'CHE and 9 digits with a mod 11 check digit',
    check: (v) => mod11(v.slice(3, 11), [5, 4, 3, 2, 7, 6, 5, 4], Number(v[11])),
  },
  '0199': { format: /^[A-Z0-9]{18}\d{2}$/, describe: 'a 20-character LEI (ISO 7064 mod 97-10)', check: iso7064Mod97 },
  '0002': { format: /^\d{9}$/, describe: 'a 9-digit SIREN with a Luhn check digit', check: siren },
  '0009': { format: /^\d{14}$/, describe: 'a 14-digit SIRET with a Luhn check digit', check: siren },
  '0204': { format: /^\d{2,12}(-[0-9A-Z]{0,30})?-\d{2}$/, describe: 'a Leitweg-ID such as 04011000-12345-34' },
  '0190': { format: /^\d{20}$/, describe: 'a 20-digit OIN' },
  '0106': { format: /^\d{8}$/, describe: 'an 8-digit KvK number' },
  '0235': { format: /^1\d{9}$/, describe: '10 digits starting with 1' },
  '0246': {
    format: /^DE\d{9}(-\d{5})?(\.[0-9A-Z]{1,8})?$/,
    describe: 'DE and 9 digits, optionally -5 digits and .suffix',
  },
  '0248': { format: /^OM\d{10}$/, describe: 'OM and 10 digits' },
  // Unlike the other 99xx schemes, Greece's is addressed by the bare TIN (the Greek rules GR-R-009/010).
  '9933': {
    format: /^\d{9}$/,
    describe: 'the 9-digit Greek TIN (AFM) with its check digit, without EL',
    check: isGreekTin,
  },
  '9925': {
    format: /^BE[01]\d{9}$/,
    describe: 'BE and the 10-digit enterprise number (mod 97 check)',
    check: (v) => belgianEnterpriseNumber(v.slice(2)),
  },
};

/** National VAT schemes: the value is the VAT number with its country prefix. */
const vatSchemeCountry: Record<string, string> = {
  '9910': 'HU',
  '9914': 'AT',
  '9920': 'ES',
  '9957': 'FR',
  '9922': 'AD',
  '9923': 'AL',
  '9924': 'BA',
  '9926': 'BG',
  '9927': 'CH',
  '9928': 'CY',
  '9929': 'CZ',
  '9930': 'DE',
  '9931': 'EE',
  '9932': 'GB',
  '9934': 'HR',
  '9935': 'IE',
  '9936': 'LI',
  '9937': 'LT',
  '9938': 'LU',
  '9939': 'LV',
  '9940': 'MC',
  '9941': 'ME',
  '9942': 'MK',
  '9943': 'MT',
  '9944': 'NL',
  '9945': 'PL',
  '9946': 'PT',
  '9947': 'RO',
  '9948': 'RS',
  '9949': 'SI',
  '9950': 'SK',
  '9951': 'SM',
  '9952': 'TR',
  '9953': 'VA',
};

/** A scheme's identifier format, as a regular expression body (its own anchors taken off). */
function valueFormat(scheme: string): string {
  const rule = rules[scheme];
  if (rule) return rule.format.source.replace(/^\^/, '').replace(/\$$/, '');
  const country = vatSchemeCountry[scheme];
  if (country) return `${country}[0-9A-Za-z]{2,13}`;
  return `${PARTICIPANT_VALUE_CHARACTER}{1,${MAX_VALUE_LENGTH}}`;
}

/**
 * The shape of every id peppolIdProblem accepts, from the same tables: one
 * alternative per current EAS scheme with that scheme's format. What a
 * regular expression cannot say is left to the description beside it: the
 * check digits of the schemes that have them.
 */
export const PEPPOL_ID_PATTERN = `^(?:${[...currentSchemes].map((scheme) => `${scheme}:(?:${valueFormat(scheme)})`).join('|')})$`;

/** The schemes whose identifiers carry check digits (a well-shaped id of these can still be refused). */
export const CHECK_DIGIT_SCHEMES: readonly string[] = Object.keys(rules).filter(
  (scheme) => rules[scheme]!.check !== undefined,
);

/** Why a Peppol id is not acceptable, or undefined when it is. */
export function peppolIdProblem(raw: string): string | undefined {
  const match = /^(\d{4}):(\S+)$/.exec(raw);
  if (!match) return 'expected scheme:id, e.g. 0208:0123456749 (a 4-digit EAS code, a colon, the identifier)';
  const [, scheme, value] = match as unknown as [string, string, string];
  if (!currentSchemes.has(scheme)) return `${scheme} is not a current Peppol EAS code`;
  if (value.length > MAX_VALUE_LENGTH) return `the identifier is longer than ${MAX_VALUE_LENGTH} characters`;
  if (!PARTICIPANT_VALUE_CHARACTERS.test(value))
    return 'the identifier may hold only printable ASCII characters other than space and < > & " \'';
  const rule = rules[scheme];
  if (rule) {
    if (!rule.format.test(value)) return `scheme ${scheme} expects ${rule.describe}`;
    if (rule.check && !rule.check(value)) return `the check digits of this ${scheme} identifier do not match`;
    return undefined;
  }
  const country = vatSchemeCountry[scheme];
  if (country && !new RegExp(`^${country}[0-9A-Za-z]{2,13}$`).test(value)) {
    return `scheme ${scheme} expects a ${country} VAT number starting with ${country}`;
  }
  return undefined;
}

/**
 * A Peppol service provider id (SPIS, section 3.4): the seat id of the
 * provider's access point certificate without its three-letter prefix
 * (`PBE000001` → `000001`), as MLS parties are named under ICD 0242.
 */
export const serviceProviderId = (seat: string): string | undefined => /^[A-Z]{3}([0-9]{6})$/i.exec(seat.trim())?.[1];

/** Why a participant id is not a service provider's (`0242:<SPID>`, SPIS section 3.4), or undefined when it is. */
export function serviceProviderParticipantProblem(raw: string): string | undefined {
  return /^0242:[0-9]{6}(-[0-9A-Z_]{3,12}(\.[0-9A-Z\-._~]{3,24})?)?$/i.test(raw)
    ? undefined
    : 'expected 0242: and a Peppol service provider id such as 000002';
}

/** The participant (`0242:<SPID>`) under which a service provider receives Message Level Status (MLS 1.0, receiving.md 4.4). */
export function serviceProviderParticipant(seat: string): string {
  const spid = serviceProviderId(seat);
  if (!spid) throw new Error(`${seat} is not a Peppol seat id (three letters and six digits)`);
  return `0242:${spid}`;
}
