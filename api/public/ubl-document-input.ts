import { documentInputSchema } from '../../domain/documents/input';
import { sellerIdentityViolations } from '../../domain/documents/sender-identity';
import type { CompanyIdentity } from '../../domain/kyc/participant-proof';
import type { Violation } from '../../domain/documents/rules';
import { newId } from '../../domain/ids';
import { inputMessage } from '../../domain/input-messages';
import { currencyViolations, payableRoundingViolations } from '../../domain/documents/rules';
import { readBusinessDocument, type Syntax } from '../../domain/terms/read-document';
import { termsOfReading } from '../../domain/terms/from-reading';
import { termNamed, termPathFromRoot } from '../../domain/terms/table';
import { writeUbl } from '../../domain/ubl/write';
import { sendableXmlViolations } from '../../domain/ubl/sendable-xml';
import type { AcceptableDocument } from '../../services/documents/accept';
import { totalsOf } from '../../services/receiving/filing';
import { MAX_STORED_DOCUMENT_BYTES, shapeViolations, storedBytesOf } from './document-input';

/**
 * A UBL Invoice or CreditNote, or a CII CrossIndustryInvoice, the client made, read on a worker thread
 * (api/public/cpu-pool.ts) once its bounds are measured: the JSON view the reader
 * makes of it (what a JSON document of the same content would be), its
 * totals as its LegalMonetaryTotal states them, and the text exactly as
 * sent, which is what is stored and sent. Plain data in and out; the
 * request turns refusals into errors (api/public/ubl-document.ts).
 */

export type UblReading =
  | { ok: true; prepared: AcceptableDocument }
  /** Not UTF-8: stored as text, the document would no longer be the bytes sent. */
  | { ok: false; notUtf8: true }
  | { ok: false; notUbl: string }
  /** The seller's electronic address as `scheme:id` (null: none with a scheme) is not the sending company's Peppol id. */
  | { ok: false; seller: string | null; syntax: Syntax }
  | { ok: false; violations: Violation[] }
  | { ok: false; storedBytes: number };

// The BOM is kept: it is part of the bytes that were sent.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Peppol participant ids are compared case-insensitively (the Peppol policy for the use of identifiers). */
const sameParticipant = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

interface PostedUbl {
  xml: Uint8Array;
  company: { _id: string; peppol_id?: string | null };
  idempotencyKey?: string | undefined;
  /** A live document's seller must be this identity, field by field. */
  verifiedSender?: CompanyIdentity | undefined;
}

/** Where a term sits in the syntax a document came in (the term table's path). */
const statedAt = (syntax: Syntax, group: 'document' | 'totals', id: string) =>
  termPathFromRoot(termNamed(group, id), syntax);

export function readPostedUbl({ xml, company, idempotencyKey, verifiedSender }: PostedUbl): UblReading {
  const text = decodeUtf8(xml);
  if (text === undefined) return { ok: false, notUtf8: true };
  const read = readBusinessDocument(text);
  if ('unsupported' in read) return { ok: false, notUbl: read.unsupported };
  const { syntax } = read;
  // A UBL document is sent as it came; a CII one is sent as the UBL written from it, so only UBL is held to what it may carry.
  const unsendable = syntax === 'ubl' ? sendableXmlViolations(text) : [];
  if (unsendable.length > 0) return { ok: false, violations: unsendable };
  const seller = read.document.from.peppol_id ?? null;
  if (!seller || !company.peppol_id || !sameParticipant(seller, company.peppol_id))
    return { ok: false, seller, syntax };
  const impersonation = verifiedSender ? sellerIdentityViolations(read.document.from, verifiedSender, syntax) : [];
  if (impersonation.length > 0) return { ok: false, violations: impersonation };
  const totals = totalsOf(read.stated_totals);
  // EN 16931 requires the amount due; without it there are no totals to keep (the official rules name the same rule).
  if (!totals)
    return {
      ok: false,
      violations: [
        {
          path: statedAt(syntax, 'totals', 'BT-115'),
          rule: 'BR-09',
          message: 'The document states no amount due for payment (BT-115).',
        },
      ],
    };
  // The view is held to the shape of a JSON document, as the same content posted as JSON would be.
  const parsed = documentInputSchema.safeParse(
    { ...read.document, company_id: company._id, idempotency_key: idempotencyKey },
    { error: inputMessage },
  );
  if (!parsed.success) return { ok: false, violations: shapeViolations(parsed.error, documentInputSchema) };
  const document = parsed.data;
  // What the JSON path checks of the same terms, named where the document states them.
  const stated = [
    ...currencyViolations(document.currency, statedAt(syntax, 'document', 'BT-5')),
    ...payableRoundingViolations(read.stated_totals.payable_rounding, statedAt(syntax, 'totals', 'BT-114')),
  ];
  if (stated.length > 0) return { ok: false, violations: stated };
  // CII is kept as posted (GET /cii gives it back) and sent as UBL written from its terms, its stated amounts kept.
  const ubl = syntax === 'ubl' ? text : writeUbl(termsOfReading(read));
  const cii = syntax === 'cii' ? text : undefined;
  const storedBytes = storedBytesOf(ubl, document) + (cii === undefined ? 0 : Buffer.byteLength(cii));
  if (storedBytes > MAX_STORED_DOCUMENT_BYTES) return { ok: false, storedBytes };
  const attachmentIds = (document.attachments ?? []).map(() => newId('attachment'));
  return { ok: true, prepared: { document, totals, ubl, ...(cii !== undefined && { cii }), attachmentIds } };
}
