import { canReceive, receiveSummary, type Capability, type SignatureCheck } from '../../../domain/peppol/capabilities';
import { hashedText, type NaptrRecord } from '../../../domain/peppol/sml';
import { fullIdentifier, type Identifier } from '../../../domain/peppol/smp';
import type { SmlAnswer, SmpAnswer } from '../../../platform/peppol/lookup';
import { z } from '../openapi';

/** The answers of the participant lookup: the SML step alone, and both steps with what they mean. */

const identifierSchema = z.object({ scheme: z.string(), value: z.string() }).openapi('PeppolIdentifier', {
  example: { scheme: 'cenbii-procid-ubl', value: 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0' },
});

// Nullable uses of these stay inline: a named component made nullable is described wrongly (allOf with the $ref).
const naptrSchema = z
  .object({
    order: z.number().int(),
    preference: z.number().int(),
    flags: z.string().openapi({ example: 'U' }),
    service: z.string().openapi({ example: 'Meta:SMP' }),
    regexp: z.string().openapi({ example: '!.*!https://smp.example.com!' }),
    replacement: z.string(),
  })
  .openapi({ description: 'A NAPTR record as published' });

export const dnsLookupSchema = z
  .object({
    participant: identifierSchema.extend({
      id: z.string().openapi({
        description: 'The full identifier, `scheme::value`',
        example: 'iso6523-actorid-upis::0208:0123456749',
      }),
    }),
    registered: z.boolean().openapi({
      description:
        'Whether the SML publishes a `U` / `Meta:SMP` NAPTR record for the participant (with `PEPPOL_SML_LOOKUP=cname`: whether its legacy `B-…` name resolves)',
    }),
    sml: z.object({
      zone: z.string().openapi({ example: 'participant.sml.prod.tech.peppol.org' }),
      hashed: z.string().openapi({
        description: 'The text hashed: the participant value, lower-cased, without the scheme',
        example: '0208:0123456749',
      }),
      dns_name: z.string().openapi({
        description:
          'The name queried: Base32 (no padding, lower case) of the SHA-256 of `hashed`, the scheme and the zone; with `query_type` `CNAME` (the legacy scheme a service may be configured for), `B-` and the hex MD5 of `hashed`, the scheme and the zone',
        example:
          'hqlnrkedej3xevnxcnqilr5gx4hmdn4lws23cztjymy4mhl3plla.iso6523-actorid-upis.participant.sml.prod.tech.peppol.org',
      }),
      query_type: z.enum(['NAPTR', 'CNAME']).openapi({
        description:
          'How the SML was asked: `NAPTR`, the Peppol lookup; `CNAME`, the legacy scheme, retired on the Peppol network since 2025-11-01',
      }),
      records: z.array(naptrSchema).openapi({
        description: 'Every NAPTR record at the name (none when the name does not exist, or asked by CNAME)',
      }),
      record: naptrSchema
        .nullable()
        .openapi({ description: 'The record that names the SMP (lowest order, then preference)' }),
    }),
    smp_url: z
      .string()
      .nullable()
      .openapi({ description: 'The SMP base URL the record yields', example: 'https://smp.example.com' }),
    summary: z.string().openapi({ description: 'What the SML step found, for a person' }),
  })
  .openapi('ParticipantDnsLookup');

const certificateSchema = z
  .object({
    subject: z.string().openapi({ example: 'C=BE, O=Example AP, CN=PBE000123' }),
    issuer: z.string(),
    serial_number: z.string(),
    valid_from: z.string().openapi({ format: 'date-time' }),
    valid_to: z.string().openapi({ format: 'date-time' }),
    fingerprint_sha256: z.string(),
    chain_verified: z.boolean().openapi({
      description:
        'Whether a trusted CA (on Peppol, the Peppol AP CA) issued it and it is valid now; when not, `problems` says why',
    }),
  })
  .openapi({ description: "The receiving access point's X.509 certificate" });

// Used nullable only, so inline (see above).
const smpSignatureSchema = z
  .object({
    verified: z.boolean().openapi({
      description:
        'Whether the SMP signed this service metadata in the Peppol form (an enveloped XML signature over the whole document, inclusive or exclusive C14N, RSA-SHA256) with a certificate a trusted CA (on Peppol, the Peppol SMP CA) issued, valid now',
    }),
    signer_subject: z.string().nullable().openapi({
      description: "The signing certificate's subject; null when none could be read",
      example: 'C=BE, O=Example SMP, CN=PSM000123',
    }),
    problem: z.string().nullable().openapi({
      description: 'Why it is not verified; null when it is',
      example: 'the document was changed after it was signed (its digest does not match)',
    }),
  })
  .openapi({ description: "The SMP's XML signature over a service metadata answer, as checked" });

const capabilitySchema = z
  .object({
    document_type: identifierSchema,
    billing_document: z
      .enum(['invoice', 'credit_note'])
      .nullable()
      .openapi({ description: 'Set when the document type is a BIS Billing 3.0 invoice or credit note' }),
    process: identifierSchema,
    transport_profile: z.string().openapi({ example: 'peppol-transport-as4-v2_0' }),
    endpoint_url: z
      .string()
      .openapi({ description: "The receiving access point's address", example: 'https://ap.example.com/as4' }),
    certificate: certificateSchema.nullable().openapi({
      description: "The receiving access point's certificate; null when none is published or it cannot be read",
    }),
    service_activation: z.string().nullable().openapi({ format: 'date-time' }),
    service_expiration: z.string().nullable().openapi({ format: 'date-time' }),
    usable: z.boolean().openapi({ description: 'Whether a sender can use this endpoint now' }),
    problems: z.array(z.string()).openapi({
      description:
        "Why it cannot be used now (the SMP's signature, transport profile, certificate and its issuer, service dates)",
    }),
  })
  .openapi('ParticipantCapability');

export const lookupSchema = dnsLookupSchema
  .extend({
    smp: z.object({
      service_group_url: z.string(),
      document_types: z.array(identifierSchema).openapi({ description: 'Every document type the service group lists' }),
      services: z
        .array(
          z.object({
            document_type: identifierSchema,
            url: z.string(),
            found: z.boolean().openapi({ description: 'False when the SMP answered 404 for this document type' }),
            redirect: z
              .object({ href: z.string(), certificate_uid: z.string() })
              .nullable()
              .openapi({ description: 'Set when the SMP points elsewhere for this document type (not followed)' }),
            smp_signature: smpSignatureSchema
              .nullable()
              .openapi({ description: "The SMP's signature over this answer; null when not found" }),
          }),
        )
        .openapi({ description: 'The service metadata read (at most 100 per lookup)' }),
    }),
    capabilities: z.array(capabilitySchema).openapi({ description: 'Every endpoint of every service metadata entry' }),
    can_receive: z.object({ invoice: z.boolean(), credit_note: z.boolean() }).openapi({
      description: 'Whether a BIS Billing 3.0 invoice / credit note can be sent to the participant now, by Peppol AS4',
    }),
  })
  .openapi('ParticipantLookup');

function identifierView(id: Identifier) {
  return { scheme: id.scheme, value: id.value };
}

const naptrView = ({ order, preference, flags, service, regexp, replacement }: NaptrRecord) => ({
  order,
  preference,
  flags,
  service,
  regexp,
  replacement,
});

function smlSummary(sml: SmlAnswer): string {
  const who = sml.participant.value;
  if (sml.smlLookup === 'cname')
    return sml.smpUrl
      ? `${who} is registered; its SMP is ${sml.smpUrl} (legacy CNAME lookup).`
      : `${who} is not registered: ${sml.dnsName} does not resolve.`;
  if (!sml.record) return `${who} is not registered on Peppol: ${sml.dnsName} has no Meta:SMP NAPTR record.`;
  if (!sml.smpUrl) return `${who} is registered on Peppol, but its SML record gives no SMP URL: ${sml.problem}.`;
  return `${who} is registered on Peppol; its SMP is ${sml.smpUrl}.`;
}

export function dnsLookupView(sml: SmlAnswer): z.infer<typeof dnsLookupSchema> {
  return {
    participant: { ...identifierView(sml.participant), id: fullIdentifier(sml.participant) },
    registered: sml.smlLookup === 'cname' ? sml.smpUrl !== undefined : sml.record !== undefined,
    sml: {
      zone: sml.zone,
      hashed: hashedText(sml.participant.value),
      dns_name: sml.dnsName,
      query_type: sml.smlLookup === 'cname' ? 'CNAME' : 'NAPTR',
      records: sml.records.map(naptrView),
      record: sml.record ? naptrView(sml.record) : null,
    },
    smp_url: sml.smpUrl ?? null,
    summary: smlSummary(sml),
  };
}

const signatureView = (signature: SignatureCheck): z.infer<typeof smpSignatureSchema> => ({
  verified: signature.verified,
  signer_subject: signature.signerSubject ?? null,
  problem: signature.verified ? null : signature.problem,
});

function capabilityView(capability: Capability): z.infer<typeof capabilitySchema> {
  const { certificate } = capability;
  return {
    document_type: identifierView(capability.documentType),
    billing_document: capability.billingDocument ?? null,
    process: identifierView(capability.process),
    transport_profile: capability.transportProfile,
    endpoint_url: capability.endpointUrl,
    certificate: certificate
      ? {
          subject: certificate.subject,
          issuer: certificate.issuer,
          serial_number: certificate.serialNumber,
          valid_from: certificate.validFrom.toISOString(),
          valid_to: certificate.validTo.toISOString(),
          fingerprint_sha256: certificate.fingerprintSha256,
          chain_verified: certificate.chainVerified,
        }
      : null,
    service_activation: capability.activation?.toISOString() ?? null,
    service_expiration: capability.expiration?.toISOString() ?? null,
    usable: capability.problems.length === 0,
    problems: capability.problems,
  };
}

export function lookupView(sml: SmlAnswer, smp: SmpAnswer, capabilities: Capability[]): z.infer<typeof lookupSchema> {
  return {
    ...dnsLookupView(sml),
    smp: {
      service_group_url: smp.url,
      document_types: smp.serviceGroup.documentTypes.map(identifierView),
      services: smp.services.map((service) => ({
        document_type: identifierView(service.documentType),
        url: service.url,
        found: service.metadata !== undefined,
        redirect:
          service.metadata?.kind === 'redirect'
            ? { href: service.metadata.href, certificate_uid: service.metadata.certificateUid }
            : null,
        smp_signature: service.signature ? signatureView(service.signature) : null,
      })),
    },
    capabilities: capabilities.map(capabilityView),
    can_receive: canReceive(capabilities),
    summary: receiveSummary(sml.participant.value, capabilities),
  };
}
