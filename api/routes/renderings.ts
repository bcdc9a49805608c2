import { RENDER_LANGUAGES, INTERACTIVE_VALIDATION_MS, NotRenderableError, type OfficialValidator, type RenderFormat } from '../../platform/official-validator';
import { finishedRendering } from '../../domain/rendering/finish';
import { VIEWER_SCRIPT_SOURCE } from '../../domain/rendering/safe-html';
import { fileStemOf } from '../../domain/text';
import { boundsProblem } from '../../domain/xml-bounds';
import { renderableUblOf, renderingTag } from '../../services/documents/rendering';
import type { Store } from '../../store';
import { requireDocumentOf } from '../access';
import { ApiError } from '../errors';
import type { CpuPool } from '../offload';
import { z } from '../openapi';
import type { RouteTable } from '../route';
import { documentParams, optionalDocumentCompany } from './documents';

/**
 * Rendered HTML runs nothing that could reach anything: an opaque origin (sandbox), no requests,
 * only the stylesheet's own inline style and the viewer's one script (by its hash) that switches the
 * tabs; downloads stay allowed for the attachments, offered as plain bytes.
 */
const HTML_POLICY = `sandbox allow-scripts allow-downloads; default-src 'none'; style-src 'unsafe-inline'; script-src ${VIEWER_SCRIPT_SOURCE}; img-src data:`;

const FORMATS: Record<RenderFormat, { contentType: string; name: string }> = {
  pdf: { contentType: 'application/pdf', name: 'PDF' },
  html: { contentType: 'text/html; charset=utf-8', name: 'HTML page' },
};

const languageQuery = (format: RenderFormat) =>
  z
    .object({
      lang: z
        .enum(RENDER_LANGUAGES[format])
        .default('en')
        .openapi({ description: `The labels' language: ${RENDER_LANGUAGES[format].map((lang) => `\`${lang}\``).join(', ')} (the renderer's own; default \`en\`). The document's own text stays as written.` }),
      company_id: optionalDocumentCompany,
    })
    .strict();

/** Exported for the MCP server's tool, whose arguments are these very fields. */
export const pdfQuery = languageQuery('pdf');

export interface RenderingRouteDependencies {
  store: Store;
  /** Renders in its interactive lane, under the same time limit as a validation asked from outside. */
  validator: OfficialValidator;
  /** Measures the UBL before the renderer sees it. */
  cpu: CpuPool;
}

const notRenderable = (documentId: string, why: string) => new ApiError('document_not_renderable', `Document ${documentId} cannot be rendered: ${why}.`);

/** `GET /v1/documents/{id}/pdf` and `/html`: every document, sent or received, as a person reads it. */
export function renderingRoutes(routes: RouteTable, { store, validator, cpu }: RenderingRouteDependencies): void {
  for (const format of ['pdf', 'html'] as const) {
    const { contentType, name } = FORMATS[format];
    routes.add({
      method: 'get',
      path: `/v1/documents/{id}/${format}`,
      operationId: format === 'pdf' ? 'getDocumentPdf' : 'getDocumentHtml',
      summary: `The document as a ${name} a person reads`,
      description:
        `Any document, sent or received, invoice or credit note, rendered from its UBL by KoSIT's XRechnung visualization ` +
        `(EN 16931 terms, every business term the document carries). A sent document renders from acceptance on, from the UBL ` +
        `that is (or will be) sent. The answer carries an \`ETag\`; with \`If-None-Match\` the same tag is answered 304 without ` +
        `rendering again. A received document past the XML bounds, or that is no UBL invoice or credit note, is 422 \`document_not_renderable\`. ` +
        `A rendering stops after ${INTERACTIVE_VALIDATION_MS / 1000} s (503 \`validator_unavailable\`).` +
        (format === 'html' ? ' The page is served under a sandboxing Content-Security-Policy: it loads nothing and reaches nothing.' : ''),
      tags: ['Documents'],
      limitedKeys: true,
      params: documentParams,
      query: format === 'pdf' ? pdfQuery : languageQuery(format),
      responses: {
        200: {
          description: name,
          schema: z.string().openapi({ format: 'binary' }),
          contentType: contentType.split(';')[0]!,
          headers: {
            ETag: { description: 'Names this rendering (the UBL, format and language)', schema: { type: 'string' } },
            'Cache-Control': { description: '`private, no-cache`: keep it, and ask again with `If-None-Match`', schema: { type: 'string' } },
          },
        },
        304: { description: 'Not modified: the `If-None-Match` tag names this rendering' },
      },
      errors: ['not_company_member', 'document_not_found', 'ubl_not_available', 'document_not_renderable', 'validator_unavailable'],
      handler: async ({ auth, params, query, req, res, signal }) => {
        const document = await requireDocumentOf(store, auth, params.id, query.company_id);
        const ubl = await renderableUblOf(store, document);
        if (!ubl) throw new ApiError('ubl_not_available', `Document ${document._id} was received without a business document in its envelope.`);
        const tag = renderingTag(ubl, format, query.lang);
        res.set({ ETag: tag, 'Cache-Control': 'private, no-cache' });
        if (req.headers['if-none-match']?.split(',').some((candidate) => candidate.trim() === tag)) {
          res.status(304).end();
          return;
        }
        // A received document is kept whatever it holds, past the XML bounds too: such a one is never rendered.
        const bounds = await cpu.run('checkUblBounds', { xml: ubl });
        if (!bounds.ok) throw notRenderable(document._id, boundsProblem(bounds));
        let rendered: Buffer;
        try {
          rendered = await finishedRendering(await validator.render(ubl, format, query.lang, { lane: 'interactive', limitMs: INTERACTIVE_VALIDATION_MS, signal }), format, document.environment, (page) => cpu.run('safeRenderedPage', page));
        } catch (err) {
          if (err instanceof NotRenderableError) throw notRenderable(document._id, err.message);
          throw err;
        }
        if (format === 'html') res.set('Content-Security-Policy', HTML_POLICY);
        res.status(200).type(contentType).set('Content-Disposition', `inline; filename="${fileStemOf(document.number)}.${format}"`).send(rendered);
      },
    });
  }
}
