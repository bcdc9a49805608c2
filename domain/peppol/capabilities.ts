import { X509Certificate } from 'node:crypto';

import { distinguishedName, trustProblem, type TrustAnchors } from './certificate-trust';
import type { Endpoint, Identifier, ServiceMetadata } from './smp';
import { PINT_AUNZ_CUSTOMIZATION_ID, PINT_PROFILE_ID } from '../ubl/xml';

/**
 * What a participant's SMP entries mean for a sender of BIS Billing 3.0:
 * each endpoint as a capability with the reasons it cannot be used now (the
 * SMP's signature among them, and the access point certificate's issuer),
 * and the plain answer whether an invoice and a credit note can be sent
 * (reference parts B.4 and C.7).
 */

export const BIS_BILLING_INVOICE: Identifier = {
  scheme: 'busdox-docid-qns',
  value:
    'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1',
};
export const BIS_BILLING_CREDIT_NOTE: Identifier = {
  scheme: 'busdox-docid-qns',
  value:
    'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2::CreditNote##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1',
};
/** Peppol BIS Billing 3.0 in the UN/CEFACT CII syntax: one document type for invoices and credit notes (TypeCode 380, 381). */
export const BIS_BILLING_CII: Identifier = {
  scheme: 'busdox-docid-qns',
  value:
    'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100::CrossIndustryInvoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::D16B',
};
/** The process this service sends under (its `cbc:ProfileID`). */
export const BIS_BILLING_PROCESS: Identifier = {
  scheme: 'cenbii-procid-ubl',
  value: 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0',
};
/** The only transport profile still active on Peppol. */
export const PEPPOL_AS4 = 'peppol-transport-as4-v2_0';

export type BillingDocument = 'invoice' | 'credit_note';

const BILLING_DOCUMENTS: Record<BillingDocument, Identifier> = {
  invoice: BIS_BILLING_INVOICE,
  credit_note: BIS_BILLING_CREDIT_NOTE,
};

/** A document type under its process: what a sender looks a receiver up for. `name` says it for a person, in the plural. */
export interface PeppolService {
  documentType: Identifier;
  process: Identifier;
  name: string;
}

const BILLING_SERVICES: Record<BillingDocument, PeppolService> = {
  invoice: { documentType: BIS_BILLING_INVOICE, process: BIS_BILLING_PROCESS, name: 'BIS Billing 3.0 invoices' },
  credit_note: {
    documentType: BIS_BILLING_CREDIT_NOTE,
    process: BIS_BILLING_PROCESS,
    name: 'BIS Billing 3.0 credit notes',
  },
};

/** BIS Billing 3.0 in CII, which a receiver may take instead of (or beside) UBL; one type for invoices and credit notes. */
export const BIS_BILLING_CII_SERVICE: PeppolService = {
  documentType: BIS_BILLING_CII,
  process: BIS_BILLING_PROCESS,
  name: 'BIS Billing 3.0 invoices and credit notes in CII',
};

/** The process every Peppol International (PINT) billing document is published and sent under: its ProfileID. */
const PINT_BILLING_PROCESS: Identifier = { scheme: 'cenbii-procid-ubl', value: PINT_PROFILE_ID };

const pintAunz = (root: 'Invoice' | 'CreditNote'): Identifier => ({
  scheme: 'busdox-docid-qns',
  value: `urn:oasis:names:specification:ubl:schema:xsd:${root}-2::${root}##${PINT_AUNZ_CUSTOMIZATION_ID}::2.1`,
});

/** PINT A-NZ, Peppol International billing as Australia and New Zealand specialise it: an invoice and a credit note. */
export const PINT_AUNZ_SERVICES: Record<BillingDocument, PeppolService> = {
  invoice: { documentType: pintAunz('Invoice'), process: PINT_BILLING_PROCESS, name: 'PINT A-NZ invoices' },
  credit_note: { documentType: pintAunz('CreditNote'), process: PINT_BILLING_PROCESS, name: 'PINT A-NZ credit notes' },
};

/** Peppol BIS Invoice Response 3 (transaction T111), which a buyer sends to the seller of an invoice. */
export const INVOICE_RESPONSE: PeppolService = {
  documentType: {
    scheme: 'busdox-docid-qns',
    value:
      'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2::ApplicationResponse##urn:fdc:peppol.eu:poacc:trns:invoice_response:3::2.1',
  },
  process: { scheme: 'cenbii-procid-ubl', value: 'urn:fdc:peppol.eu:poacc:bis:invoice_response:3' },
  name: 'Peppol Invoice Responses',
};

/** Peppol Message Level Status 1.0, which a receiving access point sends to the sending one's service provider id. */
export const MESSAGE_LEVEL_STATUS: PeppolService = {
  documentType: {
    scheme: 'busdox-docid-qns',
    value:
      'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2::ApplicationResponse##urn:peppol:edec:mls:1.0::2.1',
  },
  process: { scheme: 'cenbii-procid-ubl', value: 'urn:peppol:edec:mls' },
  name: 'Peppol Message Level Status messages',
};

/** The process both Peppol reports are sent under. */
const REPORTING_PROCESS: Identifier = {
  scheme: 'cenbii-procid-ubl',
  value: 'urn:fdc:peppol.eu:edec:bis:reporting:1.0',
};

/** Peppol Reporting's monthly Transaction Statistics Report 1.0 (2.2.1), sent to OpenPeppol's reporting receiver. */
export const TRANSACTION_STATISTICS_REPORT: PeppolService = {
  documentType: {
    scheme: 'busdox-docid-qns',
    value:
      'urn:fdc:peppol:transaction-statistics-report:1.0::TransactionStatisticsReport##urn:fdc:peppol.eu:edec:trns:transaction-statistics-reporting:1.0::1.0',
  },
  process: REPORTING_PROCESS,
  name: 'Peppol Transaction Statistics Reports',
};

/** Peppol Reporting's monthly End User Statistics Report 1.1 (2.2.1). */
export const END_USER_STATISTICS_REPORT: PeppolService = {
  documentType: {
    scheme: 'busdox-docid-qns',
    value:
      'urn:fdc:peppol:end-user-statistics-report:1.1::EndUserStatisticsReport##urn:fdc:peppol.eu:edec:trns:end-user-statistics-report:1.1::1.1',
  },
  process: REPORTING_PROCESS,
  name: 'Peppol End User Statistics Reports',
};

/** The process a document type is published under: the Invoice Response's, MLS's and PINT's own, BIS Billing for everything else. */
export function processOf(documentType: Identifier): Identifier {
  const service = [INVOICE_RESPONSE, MESSAGE_LEVEL_STATUS, ...Object.values(PINT_AUNZ_SERVICES)].find((candidate) =>
    same(candidate.documentType, documentType),
  );
  return service ? service.process : BIS_BILLING_PROCESS;
}

/** What a send is looked up for: a billing document by its kind, or any service. */
export type Deliverable = BillingDocument | PeppolService;

/**
 * What a billing document is looked up for: the BIS Billing service of its kind, or the PINT A-NZ one when it
 * claims PINT A-NZ (its routing's document type), which a receiver publishes apart.
 */
export function billingDeliverable(routing: { kind: BillingDocument; documentType: Identifier }): Deliverable {
  const pint = PINT_AUNZ_SERVICES[routing.kind];
  return same(pint.documentType, routing.documentType) ? pint : routing.kind;
}

const serviceOf = (deliverable: Deliverable): PeppolService =>
  typeof deliverable === 'string' ? BILLING_SERVICES[deliverable] : deliverable;

/** Schemes and values compare exactly: document type and process ids are case-sensitive (B.1). */
const same = (a: Identifier, b: Identifier) => a.scheme === b.scheme && a.value === b.value;

/** What the lookup found of the SMP's signature over one service metadata answer. */
export type SignatureCheck =
  /** `signerValidTo`: when the signer's certificate expires, and with it the trust in what it signed. */
  | { verified: true; signerSubject: string; signerValidTo: Date }
  /** `signerSubject` when the signer's certificate could be read. */
  | { verified: false; signerSubject?: string; problem: string };

/** Service metadata as read, with what the lookup found of its signature. */
export interface SignedMetadata {
  metadata: ServiceMetadata;
  signature: SignatureCheck;
}

interface CertificateInfo {
  subject: string;
  issuer: string;
  serialNumber: string;
  validFrom: Date;
  validTo: Date;
  fingerprintSha256: string;
  /** Issued by a CA the access point trust setting names, and valid now. */
  chainVerified: boolean;
}

export interface Capability {
  documentType: Identifier;
  /** Set when the document type is a BIS Billing 3.0 invoice or credit note. */
  billingDocument?: BillingDocument;
  process: Identifier;
  transportProfile: string;
  endpointUrl: string;
  certificate?: CertificateInfo;
  /** The certificate as published (base64 DER), for the sender to encrypt to. */
  certificateData?: string;
  activation?: Date;
  expiration?: Date;
  /** Why a sender cannot use this endpoint now; empty when it can. */
  problems: string[];
}

/** The certificate an SMP publishes (base64 DER without PEM armour), or undefined when it is not one. */
function readCertificate(base64: string): X509Certificate | undefined {
  try {
    return new X509Certificate(Buffer.from(base64.replace(/\s+/g, ''), 'base64'));
  } catch {
    return undefined;
  }
}

/** An `xs:dateTime`; one without a time zone is read as UTC. */
function dateTime(text: string): Date | undefined {
  const date = new Date(/(Z|[+-]\d{2}:\d{2})$/i.test(text) ? text : `${text}Z`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

interface CapabilityContext {
  signature: SignatureCheck;
  accessPointTrust: TrustAnchors;
  now: Date;
}

function describedCertificate(certificate: X509Certificate, chainVerified: boolean): CertificateInfo {
  return {
    subject: distinguishedName(certificate.subject),
    issuer: distinguishedName(certificate.issuer),
    serialNumber: certificate.serialNumber,
    validFrom: new Date(certificate.validFrom),
    validTo: new Date(certificate.validTo),
    fingerprintSha256: certificate.fingerprint256,
    chainVerified,
  };
}

function capability(
  documentType: Identifier,
  process: Identifier,
  endpoint: Endpoint,
  { signature, accessPointTrust, now }: CapabilityContext,
): Capability {
  const problems: string[] = [];
  // First: without the SMP's signature nothing else in the metadata is vouched for.
  if (!signature.verified) problems.push(`the SMP's signature is not verified: ${signature.problem}`);
  if (endpoint.transportProfile !== PEPPOL_AS4)
    problems.push(`transport profile ${endpoint.transportProfile || '(none)'} is not ${PEPPOL_AS4}`);
  const read = endpoint.certificate ? readCertificate(endpoint.certificate) : undefined;
  const untrusted = read && trustProblem(read, accessPointTrust, now);
  const certificate = read && describedCertificate(read, untrusted === undefined);
  if (!certificate)
    problems.push(
      endpoint.certificate
        ? 'the access point certificate is not a readable X.509 certificate'
        : 'no access point certificate is published',
    );
  else if (certificate.validFrom > now)
    problems.push(`the access point certificate is valid only from ${certificate.validFrom.toISOString()}`);
  else if (certificate.validTo < now)
    problems.push(`the access point certificate expired on ${certificate.validTo.toISOString()}`);
  else if (untrusted) problems.push(`the access point certificate is not trusted: ${untrusted}`);
  const activation = endpoint.activation === undefined ? undefined : dateTime(endpoint.activation);
  const expiration = endpoint.expiration === undefined ? undefined : dateTime(endpoint.expiration);
  if (endpoint.activation !== undefined && !activation)
    problems.push(`the service activation date ${endpoint.activation} is not a date`);
  if (endpoint.expiration !== undefined && !expiration)
    problems.push(`the service expiration date ${endpoint.expiration} is not a date`);
  if (activation && activation > now) problems.push(`the service is active only from ${activation.toISOString()}`);
  if (expiration && expiration < now) problems.push(`the service expired on ${expiration.toISOString()}`);
  const billingDocument = (Object.keys(BILLING_DOCUMENTS) as BillingDocument[]).find((kind) =>
    same(BILLING_DOCUMENTS[kind], documentType),
  );
  return {
    documentType,
    ...(billingDocument && { billingDocument }),
    process,
    transportProfile: endpoint.transportProfile,
    endpointUrl: endpoint.address,
    ...(certificate && { certificate, certificateData: endpoint.certificate.replace(/\s+/g, '') }),
    ...(activation && { activation }),
    ...(expiration && { expiration }),
    problems,
  };
}

/**
 * Every endpoint of every process of the metadata found, one capability
 * each; its access point certificate checked against `accessPointTrust`.
 */
export function capabilitiesOf(found: SignedMetadata[], now: Date, accessPointTrust: TrustAnchors): Capability[] {
  return found.flatMap(({ metadata, signature }) =>
    metadata.kind === 'metadata'
      ? metadata.processes.flatMap(({ process, endpoints }) =>
          endpoints.map((endpoint) =>
            capability(metadata.documentType, process, endpoint, { signature, accessPointTrust, now }),
          ),
        )
      : [],
  );
}

function serves(entry: Capability, deliverable: Deliverable): boolean {
  const service = serviceOf(deliverable);
  return (
    same(entry.documentType, service.documentType) &&
    same(entry.process, service.process) &&
    entry.problems.length === 0
  );
}

/**
 * Whether the participant can receive each BIS Billing 3.0 document from this
 * service: an endpoint for the document type under the billing process, by
 * Peppol AS4, in service now, in metadata the SMP signed verifiably, with a
 * certificate a trusted CA issued, valid now.
 */
export function canReceive(capabilities: Capability[]): Record<BillingDocument, boolean> {
  return {
    invoice: capabilities.some((entry) => serves(entry, 'invoice')),
    credit_note: capabilities.some((entry) => serves(entry, 'credit_note')),
  };
}

/** Where a document of this kind is sent now: the endpoint and the certificate to encrypt to; undefined when it cannot be. */
export function endpointFor(
  deliverable: Deliverable,
  capabilities: Capability[],
): { url: string; certificate: string } | undefined {
  const entry = capabilities.find((candidate) => serves(candidate, deliverable));
  // An entry that serves has a readable certificate (a missing one is among its problems).
  return entry?.certificateData ? { url: entry.endpointUrl, certificate: entry.certificateData } : undefined;
}

/** Why the participant cannot be sent this kind of document, for a person. */
function whyNot(deliverable: Deliverable, capabilities: Capability[]): string {
  const { documentType } = serviceOf(deliverable);
  const entries = capabilities.filter((entry) => same(entry.documentType, documentType));
  if (entries.length === 0) return 'its SMP does not list the document type';
  const broken = entries.find((entry) => entry.problems.length > 0);
  if (broken) return broken.problems[0]!;
  return `it is registered only under other processes: ${[...new Set(entries.map((entry) => entry.process.value))].join(', ')}`;
}

const PLURAL: Record<BillingDocument, string> = { invoice: 'invoices', credit_note: 'credit notes' };

/** The refusal for one kind, for a person: `cannot receive BIS Billing 3.0 credit notes on Peppol: <why>`. */
export const cannotReceive = (deliverable: Deliverable, capabilities: Capability[]): string =>
  `cannot receive ${serviceOf(deliverable).name} on Peppol: ${whyNot(deliverable, capabilities)}`;

/** One sentence for a person: can the participant be sent an invoice and a credit note, and if not, why. */
export function receiveSummary(participant: string, capabilities: Capability[]): string {
  const can = canReceive(capabilities);
  const yes = (['invoice', 'credit_note'] as const).filter((kind) => can[kind]);
  const endpoints = [
    ...new Set(
      capabilities.filter((entry) => yes.some((kind) => serves(entry, kind))).map((entry) => entry.endpointUrl),
    ),
  ];
  const no = (['invoice', 'credit_note'] as const).filter((kind) => !can[kind]);
  const refused = no.map((kind) => `${PLURAL[kind]} (${whyNot(kind, capabilities)})`).join(' or ');
  if (yes.length === 0) return `${participant} is on Peppol but cannot receive BIS Billing 3.0 ${refused}.`;
  const received = `${participant} is on Peppol and can receive BIS Billing 3.0 ${yes.map((kind) => PLURAL[kind]).join(' and ')} (AS4 at ${endpoints.join(', ')})`;
  return no.length === 0 ? `${received}.` : `${received}, but not ${refused}.`;
}
