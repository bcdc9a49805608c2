import { UBL_BOUNDS } from '../../../domain/xml-bounds';
import {
  INTERACTIVE_VALIDATION_MS,
  type OfficialDocumentType,
  type OfficialValidator,
} from '../../../platform/official-validator';
import type { RateLimiter } from '../../../services/rate-limits';
import type { CpuPool } from '../cpu-pool';
import { z } from '../../contract/openapi';
import { perIpLimit } from '../rate-limiting';
import { notUblDocument, notWellFormedXml, requireMeasurableUbl } from '../ubl-body';
import type { RouteTable } from '../route-table';
import { findingsView, ruleSetIdSchema, ublFindingSchema } from '../../contract/views/ubl-validation';

/** Largest UBL the public validator reads: a document with a few attachments, well short of what could tie up the validator. */
const PUBLIC_UBL_MAX_BYTES = 5 * 1024 * 1024;

/**
 * The kinds the public validator judges: what a client sends or receives through this service (UBL, and CII
 * invoices and credit notes). The
 * validator also knows the Peppol reports (TSR, EUSR), but they are no UBL and only an access point sends
 * them: the public endpoint answers them like any other non-UBL XML (422 `not_ubl_document`).
 */
const PUBLIC_DOCUMENT_TYPES = ['invoice', 'credit_note', 'invoice_response', 'mls', 'cii'] as const;
const isPublicDocumentType = (type: OfficialDocumentType | null): type is (typeof PUBLIC_DOCUMENT_TYPES)[number] =>
  (PUBLIC_DOCUMENT_TYPES as readonly (string | null)[]).includes(type);

const reportSchema = z
  .object({
    valid: z
      .boolean()
      .openapi({ description: 'True when no finding is fatal: the document may be sent on the Peppol network' }),
    document_type: z.enum(PUBLIC_DOCUMENT_TYPES).openapi({
      description:
        '`invoice` and `credit_note` (BIS Billing 3.0), `invoice_response` (BIS Invoice Response 3, T111), `mls` (Peppol Message Level Status 1.0) ' +
        "or `cii` (a UN/CEFACT CII CrossIndustryInvoice, judged by CEN's EN 16931 CII rules: the D16B schema and the CII schematron)",
    }),
    rule_set: ruleSetIdSchema,
    errors: z.array(ublFindingSchema).openapi({ description: 'Fatal findings' }),
    warnings: z.array(ublFindingSchema),
  })
  .openapi('UblValidationReport');

export interface UblRouteDependencies {
  validator: OfficialValidator;
  limiter: RateLimiter;
  /** Measures the XML before the validator sees it. */
  cpu: CpuPool;
  validationsPerHour: number;
  maxBodyBytes: number;
}

export function ublRoutes(
  routes: RouteTable,
  { validator, limiter, cpu, validationsPerHour, maxBodyBytes }: UblRouteDependencies,
): void {
  const limit = Math.min(maxBodyBytes, PUBLIC_UBL_MAX_BYTES);
  routes.add({
    method: 'post',
    path: '/v1/ubl/validate',
    operationId: 'validateUbl',
    summary:
      'Validate a UBL invoice, credit note, invoice response or message level status with the official Peppol rules',
    description:
      'No key needed. Send a UBL 2.1 `Invoice` or `CreditNote` as `application/xml`; the answer lists what the official ' +
      'Peppol BIS Billing 3.0 artefacts find (UBL 2.1 schema, EN 16931 and Peppol schematrons, national rules included): ' +
      'the same check every document passes before this service sends it. A UBL `ApplicationResponse` is judged by ' +
      'its `CustomizationID`: Peppol BIS Invoice Response 3 (T111) or Peppol Message Level Status 1.0 (`document_type` ' +
      "`invoice_response` or `mls`); a UN/CEFACT CII `CrossIndustryInvoice` by CEN's EN 16931 CII rules (`document_type` `cii`); any other is 422 `not_ubl_document`. 200 whether or not the document is valid. " +
      `At most ${validationsPerHour} validations per IP address per hour; bodies up to ${limit} bytes, ` +
      `elements nested at most ${UBL_BOUNDS.maxDepth} deep and at most ${UBL_BOUNDS.maxElements} of them (422 \`xml_too_complex\` names the bound and where it was passed); ` +
      `a validation stops after ${INTERACTIVE_VALIDATION_MS / 1000} s (503 \`validator_unavailable\`).`,
    tags: ['Public'],
    public: true,
    before: [
      perIpLimit(limiter, 'ubl-validate', validationsPerHour, 3_600_000, 'UBL validations per IP address per hour'),
    ],
    xmlBody: z.string().openapi({
      description: 'The UBL document',
      example: '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">…</Invoice>',
    }),
    bodyLimit: limit,
    responses: { 200: { description: 'The official findings', schema: reportSchema } },
    errors: [
      'invalid_xml',
      'xml_too_complex',
      'not_ubl_document',
      'rate_limit_exceeded',
      'validator_unavailable',
      'server_busy',
    ],
    handler: async ({ body, signal }) => {
      const xml = body as Buffer;
      await requireMeasurableUbl(cpu, xml);
      const report = await validator.validate(xml, { lane: 'public', limitMs: INTERACTIVE_VALIDATION_MS, signal });
      if (report.problem?.code === 'not_well_formed') throw notWellFormedXml(report.problem.message);
      if (report.problem || !isPublicDocumentType(report.document_type)) {
        const why =
          report.problem?.message ??
          `the root element is a Peppol ${report.document_type?.toUpperCase() ?? ''} report, not UBL`;
        throw notUblDocument(why, 'a UBL 2.1 Invoice, CreditNote or an Invoice Response or MLS ApplicationResponse');
      }
      return {
        status: 200,
        body: {
          valid: report.valid,
          document_type: report.document_type,
          rule_set: report.rule_set,
          ...findingsView(report.findings),
        },
      };
    },
  });
}
