import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';

/**
 * UBL 2.1 as this service writes it: the namespaces, the Peppol BIS Billing
 * 3.0 identifiers, how text is made literal, and the element writers the
 * ApplicationResponse builders use (application-response.ts). Invoices and
 * credit notes are written by the term table (write.ts). A value that is
 * absent or empty is never written (PEPPOL-EN16931-R008).
 */

export const NS = {
  Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};
export const CUSTOMIZATION_ID = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
const PROFILE_ID = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';
/**
 * XRechnung 3.0's specification identifier, for a document whose `profile` is `xrechnung`.
 * @internal
 */
export const XRECHNUNG_CUSTOMIZATION_ID = 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0';
/** Peppol International billing, Australia and New Zealand's specialisation (PINT A-NZ), for a document whose `profile` is `pint`. */
export const PINT_AUNZ_CUSTOMIZATION_ID = 'urn:peppol:pint:billing-1@aunz-1';
/** The business process every PINT billing document is sent under. */
export const PINT_PROFILE_ID = 'urn:peppol:bis:billing';
/** The sellers' countries PINT A-NZ is for. */
export const PINT_AUNZ_COUNTRIES: readonly string[] = ['AU', 'NZ'];

export type Profile = 'peppol' | 'xrechnung' | 'pint';

/** What a document of a profile is written with: its specification (BT-24) and process (BT-23) identifiers, and the tax scheme of its tax categories. */
export function profileIds(profile: Profile | undefined): {
  specification: string;
  process: string;
  taxScheme: string;
} {
  if (profile === 'pint')
    return { specification: PINT_AUNZ_CUSTOMIZATION_ID, process: PINT_PROFILE_ID, taxScheme: 'GST' };
  return {
    specification: profile === 'xrechnung' ? XRECHNUNG_CUSTOMIZATION_ID : CUSTOMIZATION_ID,
    process: PROFILE_ID,
    taxScheme: 'VAT',
  };
}

const PROFILES_BY_SPECIFICATION = new Map<string | undefined, Profile>([
  [CUSTOMIZATION_ID, 'peppol'],
  [XRECHNUNG_CUSTOMIZATION_ID, 'xrechnung'],
  [PINT_AUNZ_CUSTOMIZATION_ID, 'pint'],
]);

/** The profile a specification identifier claims (a claim of none of ours is none). */
export const profileOf = (specification: string | undefined): Profile | undefined =>
  PROFILES_BY_SPECIFICATION.get(specification);

export interface UblAttachment {
  id: string;
  filename: string;
  mime_type: string;
  content: string;
  description?: string | undefined;
}

type Node = XMLBuilder;

/**
 * Text as XML has to say it to mean exactly what the JSON said.
 * xmlbuilder2 leaves anything that looks like an entity reference (`&amp;`,
 * `&#49;`) as it is, so every `&` is escaped first (text such as `INV&#49;`
 * would otherwise come out meaning `INV1`). A parser turns a carriage return
 * into a line feed, and in attributes also tabs and line feeds into spaces,
 * so those are written as character references. (Characters XML cannot
 * carry never get this far: the input schema refuses them, and `end` checks
 * well-formedness.)
 */
export const literal = (text: string) => text.replace(/&/g, '&amp;').replace(/\r/g, '&#13;');
export const literalAttribute = (text: string) => literal(text).replace(/\t/g, '&#9;').replace(/\n/g, '&#10;');

/** A basic component, written only when it has a value (trimmed, unless asked to keep it as it is). */
export function cbc(
  parent: Node,
  name: string,
  value: string | undefined | null,
  attributes?: Record<string, string>,
  untrimmed = false,
): void {
  if (value === undefined || value === null || value.trim() === '') return;
  const escaped =
    attributes &&
    Object.fromEntries(Object.entries(attributes).map(([key, attribute]) => [key, literalAttribute(attribute)]));
  parent.ele(NS.cbc, `cbc:${name}`, escaped).txt(literal(untrimmed ? value : value.trim()));
}

function hasChildren(node: Node): boolean {
  try {
    node.first();
    return true;
  } catch {
    return false;
  }
}

/** An aggregate, written only when its writer put something in it. */
export function aggregate(parent: Node, name: string, fill: (node: Node) => void): void {
  const node = parent.ele(NS.cac, `cac:${name}`);
  fill(node);
  if (!hasChildren(node)) node.remove();
}
