import type { MlsType } from './envelope';
import { serviceProviderId } from './ids';
import { SPID_SCHEME, type MlsLine, type MlsCode } from '../ubl/application-response';
import { childNamed, childrenNamed, parseXml, XmlError } from '../xml-tree';

/**
 * Message Level Status as the receiving access point (C3), the pure part
 * (Peppol MLS 1.x and the Business Message Envelope 2.0.2; peppol-mls 1.0.1): what the
 * sender's SBDH asks for, where the status goes, and what it says.
 */

const SBDH = 'http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader';
/** SPIS section 3.4: a Main ID, optionally a use case and a provider suffix. */
const SPID = /^[0-9]{6}(-[0-9A-Z_]{3,12}(\.[0-9A-Z\-._~]{3,24})?)?$/i;
/** Document types no MLS answers (an MLS never answers an MLS). */
const MLS_DOCUMENT_TYPE_MARK = '##urn:peppol:edec:mls:';

/** What a received SBDH says about the status its sender wants. */
export interface MlsAsked {
  /** The SBDH InstanceIdentifier, which the status refers to. */
  instanceId: string;
  /** FAILURE_ONLY when the scope is absent (the Peppol Network Policy's default). */
  type: MlsType;
  /** The SPID of a valid MLS_TO scope (without `0242:`), else null. */
  to: string | null;
}

const HEADER_END = /<\/((?:[A-Za-z_][\w.-]*:)?)StandardBusinessDocumentHeader\s*>/;

/**
 * Reads the SBDH of a received SBD (only the header is parsed: the payload
 * can be megabytes). Undefined when there is no header to read; an MLS_TYPE
 * other than the two values counts as absent (the access point's SBDH
 * reader already accepted the envelope).
 */
export function mlsAskedIn(sbd: Buffer): MlsAsked | undefined {
  const text = sbd.toString('utf8');
  const end = HEADER_END.exec(text);
  if (!end) return undefined;
  let root;
  try {
    root = parseXml(`${text.slice(0, end.index + end[0].length)}</${end[1]}StandardBusinessDocument>`);
  } catch (err) {
    if (err instanceof XmlError) return undefined;
    throw err;
  }
  const header = childNamed(root, SBDH, 'StandardBusinessDocumentHeader');
  const identification = header && childNamed(header, SBDH, 'DocumentIdentification');
  const instanceId = identification && childNamed(identification, SBDH, 'InstanceIdentifier')?.text;
  if (!header || !instanceId) return undefined;
  const businessScope = childNamed(header, SBDH, 'BusinessScope');
  const scopes = businessScope ? childrenNamed(businessScope, SBDH, 'Scope') : [];
  const scope = (type: string) => scopes.find((candidate) => childNamed(candidate, SBDH, 'Type')?.text === type);
  const typeValue = scope('MLS_TYPE') && childNamed(scope('MLS_TYPE')!, SBDH, 'InstanceIdentifier')?.text;
  const toValue = scope('MLS_TO') && childNamed(scope('MLS_TO')!, SBDH, 'InstanceIdentifier')?.text?.trim();
  const toSpid = toValue?.startsWith(`${SPID_SCHEME}:`) ? toValue.slice(SPID_SCHEME.length + 1) : undefined;
  return {
    instanceId,
    type: typeValue === 'ALWAYS_SEND' ? 'ALWAYS_SEND' : 'FAILURE_ONLY',
    // "If this element is not present or invalid, MLS responses MUST be sent to the general Peppol SPID of C2."
    to: toSpid && SPID.test(toSpid) ? toSpid : null,
  };
}

/** Where the status goes: MLS_TO when valid, else the sending access point's SPID from its seat id; undefined when neither is known. */
export const mlsAddressee = (asked: MlsAsked, sendingSeat: string | null): string | undefined =>
  asked.to ?? (sendingSeat ? serviceProviderId(sendingSeat) : undefined);

/**
 * The SBDH's COUNTRY_C1 of our MLS: the receiving company's country (the end user the status speaks for).
 * There is no default: a company the status cannot name a country for stops its planning, saying which.
 */
export function mlsCountryC1(companyId: string, company: { country?: string | null } | null): string {
  if (company?.country) return company.country;
  throw new Error(
    `No Message Level Status can be addressed for company ${companyId}: ${company ? 'it has no country' : 'it is not stored'}, and the status's envelope names the company's country (COUNTRY_C1)`,
  );
}

/** Whether a received message of this document type is answered with an MLS at all. */
export const answersWithMls = (documentTypeId: string | null): boolean =>
  !documentTypeId?.includes(MLS_DOCUMENT_TYPE_MARK);

/** A fatal finding of the official rules, as the validation report of a received document keeps it. */
export interface FatalFinding {
  rule: string;
  location: string;
  message: string;
}

/** Findings that are not about business rules: the document is not readable UBL at all (the validator's `problem` codes, our own `not_ubl`). */
const SYNTAX_RULES = new Set(['not_well_formed', 'not_ubl']);

export interface MlsVerdict {
  code: MlsCode;
  description: string | null;
  lines: MlsLine[];
}

/** An MLS holds what a person reads in a few lines; a document broken everywhere is summed up. */
const MAX_LINES = 50;

/**
 * What the status says (peppol-mls rules 18-31): AB when the document was
 * filed valid (stored for the company: delivered towards C4 without its
 * confirmation), RE with one BV or SV line per fatal finding otherwise.
 * Undefined when FAILURE_ONLY was asked and nothing failed.
 */
export function mlsVerdict(
  asked: Pick<MlsAsked, 'type'>,
  validation: { valid: boolean; errors: FatalFinding[] },
): MlsVerdict | undefined {
  if (validation.valid) return asked.type === 'ALWAYS_SEND' ? { code: 'AB', description: null, lines: [] } : undefined;
  const findings =
    validation.errors.length > 0
      ? validation.errors
      : [{ rule: 'unknown', location: '', message: 'The document was refused without a finding' }];
  const lines: MlsLine[] = findings.slice(0, MAX_LINES).map((finding) => ({
    reason: SYNTAX_RULES.has(finding.rule) ? 'SV' : 'BV',
    description: `[${finding.rule}] ${finding.message}`.trim(),
    lineId: finding.location.trim() || 'NA',
  }));
  if (findings.length > MAX_LINES) {
    lines.push({
      reason: 'BV',
      description: `${findings.length - MAX_LINES} more fatal findings are not listed`,
      lineId: 'NA',
    });
  }
  return { code: 'RE', description: 'Rejected due to validation errors', lines };
}
