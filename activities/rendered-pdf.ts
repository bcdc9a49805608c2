import { ciiOfUbl } from '../domain/cii/write';
import { renderingNoticeFor, SANDBOX_NOTICE } from '../domain/rendering/sandbox-notice';
import {
  hasRenderedPdf,
  MAX_RENDERED_PDF_BYTES,
  renderedPdfIn,
  renderingLanguageOf,
  withRenderedPdf,
} from '../domain/ubl/rendered-pdf';
import { NotRenderableError } from '../platform/official-validator';
import { sendableContentOf } from '../services/documents/queries';
import { permanentDeliveryFailure } from './delivery-attempt';
import type { ActivityDependencies } from './dependencies';

/**
 * The email's PDF waits for the renderer this long at most, queue included: under a burst beyond the
 * renderer's pace (about six PDFs a second on two cores) the email goes without it rather than wait longer.
 * Ten seconds proved too short on a loaded two-core CI machine, whose sandbox emails then went without a PDF.
 * @internal
 */
export const READABLE_PDF_LIMIT_MS = 30_000;

type RenderingDependencies = Pick<ActivityDependencies, 'store' | 'validator' | 'logger'>;

interface PdfAsked {
  ubl: string;
  input: Record<string, unknown>;
  /** Stamped on every page by the renderer. */
  notice: string | undefined;
  /** A Factur-X: the PDF/A-3 with the document's CII inside. */
  facturx?: boolean;
  limitMs?: number;
}

/** The two renderings a sent document can need: the one `attach_pdf` embeds, and the sandbox email's. */
export function pdfRendering(deps: RenderingDependencies) {
  return {
    /**
     * `attach_pdf`: the stored UBL gains its own rendering as a supporting document, before it is
     * validated, so the official rules judge what is sent. Safe to repeat: a UBL that has it already is
     * left alone, and the change is written only over the UBL it was made from. A sandbox document's
     * rendering is stamped as every sandbox rendering is (its sender is unverified).
     */
    embedRenderedPdf: (documentId: string): Promise<void> => embedRenderedPdf(deps, documentId),

    /**
     * The PDF the sandbox email carries beside the UBL, made in the validating step before delivery so
     * that no delivery attempt is lengthened by a rendering. Stored once (a repeat finds it there). It is
     * a Factur-X when the workspace asks for one (`sandbox_email_pdf`); else a document sent with
     * `attach_pdf` gives the rendering it already embeds (stamped when it was made). A document the
     * renderer refuses goes without one: the UBL is the invoice, the PDF only a reading of it. Only
     * sandbox documents go by email, so a fresh rendering is stamped as from a sender nobody verified.
     */
    renderReadablePdf: (documentId: string): Promise<{ rendered: boolean }> => renderReadablePdf(deps, documentId),
  };
}

function render(validator: RenderingDependencies['validator'], { ubl, input, notice, facturx, limitMs }: PdfAsked) {
  const lang = renderingLanguageOf((input.from as { country?: string } | undefined)?.country);
  const options = { lane: 'render', notice, ...(limitMs && { limitMs }) } as const;
  if (!facturx) return validator.render(ubl, 'pdf', lang, options);
  const written = ciiOfUbl(ubl, { facturx: true });
  if ('unsupported' in written) throw new NotRenderableError(`it cannot be written as CII: ${written.unsupported}`);
  return validator.render(written.cii, 'facturx', lang, options);
}

/** What the document's workspace wants its sandbox emails to carry: its PDF, or its Factur-X. */
async function emailPdfOf(store: RenderingDependencies['store'], documentId: string) {
  const document = await store.documents.findById(documentId, { workspace_id: 1 }).lean();
  const workspace =
    document && (await store.workspaces.findById(document.workspace_id, { sandbox_email_pdf: 1 }).lean());
  return workspace?.sandbox_email_pdf ?? 'pdf';
}

async function embedRenderedPdf({ store, validator }: RenderingDependencies, documentId: string): Promise<void> {
  const content = await sendableContentOf(store, documentId);
  const document = await store.documents.findById(documentId, { environment: 1 }).lean();
  if (!content || !document) throw permanentDeliveryFailure(`Document ${documentId} has no stored UBL.`);
  if (hasRenderedPdf(content.ubl)) return;
  let pdf: Buffer;
  try {
    pdf = await render(validator, {
      ubl: content.ubl,
      input: content.input,
      notice: renderingNoticeFor(document.environment),
    });
  } catch (err) {
    if (err instanceof NotRenderableError)
      throw permanentDeliveryFailure(`The PDF to attach could not be rendered: ${err.message}.`);
    throw err;
  }
  if (pdf.length > MAX_RENDERED_PDF_BYTES) {
    throw permanentDeliveryFailure(
      `The rendered PDF takes ${pdf.length} bytes, over the ${MAX_RENDERED_PDF_BYTES} a document keeps room for; send it without attach_pdf, or split it.`,
    );
  }
  const number = (content.input.number as string | undefined) ?? documentId;
  await store.contents.updateOne(
    { _id: documentId, ubl: content.ubl },
    { $set: { ubl: withRenderedPdf(content.ubl, pdf, number) } },
  );
}

async function renderReadablePdf(
  { store, validator, logger }: RenderingDependencies,
  documentId: string,
): Promise<{ rendered: boolean }> {
  const content = await store.contents.findById(documentId, { ubl: 1, input: 1, readable_pdf: 1 }).lean();
  if (!content) throw permanentDeliveryFailure(`Document ${documentId} has no stored UBL.`);
  if (content.readable_pdf) return { rendered: true };
  const facturx = (await emailPdfOf(store, documentId)) === 'facturx';
  let pdf = facturx ? null : renderedPdfIn(content.ubl);
  if (!pdf) {
    try {
      const input = (content.input ?? {}) as Record<string, unknown>;
      pdf = await render(validator, {
        ubl: content.ubl,
        input,
        notice: SANDBOX_NOTICE,
        facturx,
        limitMs: READABLE_PDF_LIMIT_MS,
      });
    } catch (err) {
      if (!(err instanceof NotRenderableError)) throw err;
      logger.warn(
        { documentId, reason: err.message },
        'the sandbox email goes without a PDF: the renderer refused the document',
      );
      return { rendered: false };
    }
  }
  await store.contents.updateOne({ _id: documentId, readable_pdf: null }, { $set: { readable_pdf: pdf } });
  return { rendered: true };
}

/** The activity: `embedRenderedPdf` (the email's PDF is rendered inside `validateForSending`). */
export function attachedPdfActivities(deps: RenderingDependencies) {
  const rendering = pdfRendering(deps);
  return { embedRenderedPdf: (documentId: string) => rendering.embedRenderedPdf(documentId) };
}
