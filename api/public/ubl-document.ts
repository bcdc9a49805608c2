import type { CompanyIdentity } from '../../domain/kyc/participant-proof';
import { INTERACTIVE_VALIDATION_MS, splitFindings, type OfficialValidator } from '../../platform/official-validator';
import type { Company } from '../../services/companies';
import type { AcceptableDocument } from '../../services/documents/accept';
import { documentRefused, documentTooLarge } from './document-input';
import { ApiError } from '../http/errors';
import type { CpuPool } from './cpu-pool';
import { notUblDocument, notUtf8Xml, requireMeasurableUbl } from './ubl-body';
import type { UblReading } from './ubl-document-input';
import { WANTED_DOCUMENT, type Syntax } from '../../domain/terms/read-document';
import { termNamed, termPathFromRoot } from '../../domain/terms/table';

/**
 * A UBL Invoice or CreditNote, or a UN/CEFACT CII CrossIndustryInvoice, the
 * client made, made ready to be accepted as a JSON document is once
 * converted: measured (the public validator's bounds and codes), read on a
 * worker thread, its seller checked to be the sending company, then judged
 * by the official rules of its syntax before anything is stored (Peppol BIS
 * for UBL, CEN's EN 16931 CII rules for CII). A UBL document is accepted as
 * sent, byte for byte; a CII one is kept as sent and sent as the UBL written
 * from it, which the Peppol rules judge too.
 */

function sellerMismatch(stated: string | null, syntax: Syntax, company: Company): ApiError {
  const endpoint = termPathFromRoot(termNamed('seller', 'BT-34'), syntax);
  const ours = company.peppol_id ?? null;
  const why = !ours
    ? `company ${company._id} has no peppol_id to compare it with; set the company's peppol_id first`
    : `company ${company._id} (company_id) is ${ours}; a company sends only its own invoices`;
  const seller = stated
    ? `The document's seller (${endpoint} with its schemeID) is ${stated}`
    : `The document's seller has no ${endpoint} with a schemeID`;
  return new ApiError('seller_mismatch', `${seller}, but ${why}.`, {
    param: endpoint,
    details: { seller_endpoint_id: stated, company_id: company._id, company_peppol_id: ours },
  });
}

function refusal(reading: Exclude<UblReading, { ok: true }>, company: Company): ApiError {
  if ('notUtf8' in reading) return notUtf8Xml('not UTF-8');
  if ('notUbl' in reading) return notUblDocument(reading.notUbl, WANTED_DOCUMENT);
  if ('seller' in reading) return sellerMismatch(reading.seller, reading.syntax, company);
  if ('violations' in reading) return documentRefused(reading.violations);
  return documentTooLarge(reading.storedBytes);
}

/**
 * The official rules of the document's syntax: a fatal finding refuses it, each named as a violation at its XPath.
 * `sentAs` marks the UBL written from a CII document, whose findings are located in that UBL.
 */
async function requireOfficiallyValid(validator: OfficialValidator, xml: Buffer, sentAs?: 'ubl'): Promise<void> {
  const report = await validator.validate(xml, { lane: 'interactive', limitMs: INTERACTIVE_VALIDATION_MS });
  if (report.problem) throw notUblDocument(report.problem.message, WANTED_DOCUMENT);
  if (report.valid) return;
  const violations = splitFindings(report.findings).fatal.map(({ rule, location, message }) => ({
    path: location,
    rule,
    message,
  }));
  throw documentRefused(violations, { rule_set: report.rule_set, ...(sentAs && { sent_as: sentAs }) });
}

/** `verifiedSender`: a live document's seller must be this identity (domain/documents/sender-identity.ts). */
export async function prepareUblDocument(
  deps: { cpu: CpuPool; validator: OfficialValidator },
  company: Company,
  entry: { ubl: Uint8Array; bodyKey: string | undefined },
  verifiedSender?: CompanyIdentity,
): Promise<AcceptableDocument> {
  const xml = Buffer.from(entry.ubl.buffer, entry.ubl.byteOffset, entry.ubl.byteLength);
  await requireMeasurableUbl(deps.cpu, xml);
  const reading = await deps.cpu.run('readPostedUbl', {
    xml,
    company: { _id: company._id, peppol_id: company.peppol_id },
    idempotencyKey: entry.bodyKey,
    verifiedSender,
  });
  if (!reading.ok) throw refusal(reading, company);
  await requireOfficiallyValid(deps.validator, xml);
  if (reading.prepared.cii !== undefined)
    await requireOfficiallyValid(deps.validator, Buffer.from(reading.prepared.ubl), 'ubl');
  return reading.prepared;
}
