import { hasRenderedPdf, MAX_RENDERED_PDF_BYTES, renderingLanguageOf, withRenderedPdf } from '../domain/ubl/rendered-pdf';
import { NotRenderableError } from '../platform/official-validator';
import { sendableContentOf } from '../services/documents/queries';
import { permanentDeliveryFailure } from './delivery-attempt';
import type { ActivityDependencies } from './dependencies';

export function renderedPdfActivities({ store, validator }: ActivityDependencies) {
  return {
    /**
     * `attach_pdf`: the stored UBL gains its own rendering as a supporting document, before it is
     * validated, so the official rules judge what is sent. Safe to repeat: a UBL that has it already is
     * left alone, and the change is written only over the UBL it was made from.
     */
    async embedRenderedPdf(documentId: string): Promise<void> {
      const content = await sendableContentOf(store, documentId);
      if (!content) throw permanentDeliveryFailure(`Document ${documentId} has no stored UBL.`);
      if (hasRenderedPdf(content.ubl)) return;
      const seller = content.input.from as { country?: string } | undefined;
      let pdf: Buffer;
      try {
        pdf = await validator.render(content.ubl, 'pdf', renderingLanguageOf(seller?.country), { lane: 'render' });
      } catch (err) {
        if (err instanceof NotRenderableError) throw permanentDeliveryFailure(`The PDF to attach could not be rendered: ${err.message}.`);
        throw err;
      }
      if (pdf.length > MAX_RENDERED_PDF_BYTES) {
        throw permanentDeliveryFailure(
          `The rendered PDF takes ${pdf.length} bytes, over the ${MAX_RENDERED_PDF_BYTES} a document keeps room for; send it without attach_pdf, or split it.`,
        );
      }
      const number = (content.input.number as string | undefined) ?? documentId;
      await store.contents.updateOne({ _id: documentId, ubl: content.ubl }, { $set: { ubl: withRenderedPdf(content.ubl, pdf, number) } });
    },
  };
}
