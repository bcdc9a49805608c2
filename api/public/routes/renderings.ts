import {
  NotRenderableError,
  VIEW_RENDERING_MS,
  type OfficialValidator,
  type RenderFormat,
  type RenderLanguage,
} from '../../../platform/official-validator';
import type { Environment } from '../../../domain/environment';
import { finishedRendering } from '../../../domain/rendering/finish';
import { renderingNoticeFor } from '../../../domain/rendering/sandbox-notice';
import { VIEWER_SCRIPT_SOURCE } from '../../../domain/rendering/safe-html';
import { fileStemOf } from '../../../domain/text';
import { boundsProblem } from '../../../domain/xml-bounds';
import { MAX_RENDERED_LINES } from '../../../domain/rendering-bounds';
import { claimRendering, keepRendering, keptRendering, renderingTag } from '../../../services/documents/rendering';
import { requireBusinessDocument } from '../business-document';
import type { Store } from '../../../store';
import { requireDocumentOf } from '../access';
import { ApiError } from '../../http/errors';
import type { CpuPool } from '../cpu-pool';
import { z } from '../../contract/openapi';
import type { ResponseSpec, RouteTable } from '../route-table';
import { documentParams, languageQuery, pdfQuery } from '../../contract/queries';

/**
 * Rendered HTML runs nothing that could reach anything: an opaque origin (sandbox), no requests,
 * only the stylesheet's own inline style and the viewer's one script (by its hash) that switches the
 * tabs; downloads stay allowed for the attachments, offered as plain bytes.
 */
const HTML_POLICY = `sandbox allow-scripts allow-downloads; default-src 'none'; style-src 'unsafe-inline'; script-src ${VIEWER_SCRIPT_SOURCE}; img-src data:`;

const FORMATS: Record<RenderFormat, { contentType: string; name: string; operationId: string; extension: string }> = {
  pdf: { contentType: 'application/pdf', name: 'PDF', operationId: 'getDocumentPdf', extension: 'pdf' },
  html: {
    contentType: 'text/html; charset=utf-8',
    name: 'HTML page',
    operationId: 'getDocumentHtml',
    extension: 'html',
  },
  facturx: {
    contentType: 'application/pdf',
    name: 'Factur-X (ZUGFeRD) PDF',
    operationId: 'getDocumentFacturX',
    extension: 'pdf',
  },
};

/** What each format adds to the routes' common description. */
const FORMAT_NOTES: Record<RenderFormat, string> = {
  pdf: '',
  html: ' The page is served under a sandboxing Content-Security-Policy: it loads nothing and reaches nothing.',
  facturx:
    ' A Factur-X (ZUGFeRD 2, profile EN 16931) is that PDF as a PDF/A-3b with the invoice inside as `factur-x.xml`: the document as CII (as `/cii` writes it, ' +
    'claiming EN 16931 itself, `urn:cen.eu:en16931:2017`, the identifier Factur-X readers know for the profile), an associated file of relationship `Alternative`, ' +
    'named in the XMP metadata by the Factur-X schema. A person reads the pages; a program reads the XML.',
};

export interface RenderingRouteDependencies {
  store: Store;
  /** Renders in its lane for renderings asked for (`view`), never a validation's or a delivery's. */
  validator: OfficialValidator;
  /** Measures the UBL before the renderer sees it. */
  cpu: CpuPool;
}

const notRenderable = (documentId: string, why: string) =>
  new ApiError('document_not_renderable', `Document ${documentId} cannot be rendered: ${why}.`);

/** A claim outlives the rendering's own limit by this much, so it ends after the rendering does even when its process dies. */
const CLAIM_MARGIN_MS = 10_000;
/** Seconds a key waits before asking again while its rendering runs. */
const RETRY_RENDERING_AFTER_S = 5;

/** One rendering of a document, for `holder` (an API key, by its prefix). */
interface RenderingAsked {
  documentId: string;
  ubl: Buffer;
  tag: string;
  format: RenderFormat;
  lang: RenderLanguage;
  holder: string;
  signal: AbortSignal;
  environment: Environment;
}

/**
 * The rendering as every reader gets it (finishedRendering: safe to open, a sandbox one marked): kept
 * from an earlier request of the same one, or made now, measured first, at most one at a time per key,
 * finished, and kept for the next request. What is kept is the finished page, so the tag names the
 * finishing too (renderingTag): a page finished another way is neither served nor answered 304.
 */
async function renderingOf(
  { store, validator, cpu }: RenderingRouteDependencies,
  asked: RenderingAsked,
): Promise<Buffer> {
  const kept = await keptRendering(store, asked.documentId, asked.tag);
  if (kept) return kept;
  // A received document is kept whatever it holds, past the XML bounds or the lines a rendering takes too: such a one is never rendered.
  const { bounds, lines } = await cpu.run('measureForRendering', { xml: asked.ubl });
  if (!bounds.ok) throw notRenderable(asked.documentId, boundsProblem(bounds));
  if (lines > MAX_RENDERED_LINES)
    throw notRenderable(
      asked.documentId,
      `it has ${lines.toLocaleString('en')} lines, and a rendering takes at most ${MAX_RENDERED_LINES.toLocaleString('en')}`,
    );
  const release = await claimRendering(store, asked.holder, VIEW_RENDERING_MS + CLAIM_MARGIN_MS);
  if (!release) {
    throw new ApiError(
      'rendering_in_progress',
      `This API key has a rendering in progress; ask again when it has finished (a rendering takes at most ${VIEW_RENDERING_MS / 1000} s).`,
      {
        headers: { 'Retry-After': String(RETRY_RENDERING_AFTER_S) },
      },
    );
  }
  try {
    const made = await validator.render(await renderedDocumentOf(cpu, asked), asked.format, asked.lang, {
      lane: 'view',
      limitMs: VIEW_RENDERING_MS,
      signal: asked.signal,
      notice: renderingNoticeFor(asked.environment),
    });
    const rendered = await finishedRendering(made, asked.format, asked.environment, (page) =>
      cpu.run('safeRenderedPage', page),
    );
    await keepRendering(store, asked.documentId, asked.tag, rendered);
    return rendered;
  } finally {
    await release();
  }
}

/** What the renderer is given: the UBL, or for a Factur-X the CII it embeds, written from that UBL. */
async function renderedDocumentOf(cpu: CpuPool, asked: RenderingAsked): Promise<Buffer> {
  if (asked.format !== 'facturx') return asked.ubl;
  const written = await cpu.run('ciiOfStoredUbl', { xml: asked.ubl, facturx: true });
  if ('unsupported' in written)
    throw notRenderable(asked.documentId, `it cannot be written as CII: ${written.unsupported}`);
  return Buffer.from(written.cii);
}

/** `GET /v1/documents/{id}/pdf`, `/html` and `/facturx`: every document, sent or received, as a person reads it. */
export function renderingRoutes(routes: RouteTable, deps: RenderingRouteDependencies): void {
  for (const format of ['pdf', 'html', 'facturx'] as const) renderingRoute(routes, deps, format);
}

/** What the OpenAPI description says of a rendering format: the same words for each, and the format's own notes. */
function renderingDescription(format: RenderFormat): string {
  return (
    `Any document, sent or received, invoice or credit note, rendered from its UBL by KoSIT's XRechnung visualization ` +
    `(EN 16931 terms, every business term the document carries). A sent document renders from acceptance on, from the UBL ` +
    `that is (or will be) sent. The answer carries an \`ETag\`; with \`If-None-Match\` the same tag is answered 304 without ` +
    `rendering again. A rendering is made once and kept: the same one asked for again (the same UBL, format and language) ` +
    `is answered from what was kept. A received document past the XML bounds, with more than ${MAX_RENDERED_LINES.toLocaleString('en')} lines, ` +
    `or that is no UBL invoice or credit note, is 422 \`document_not_renderable\`. ` +
    `One rendering at a time per API key: while one is being made, another that is not kept yet is 429 \`rendering_in_progress\` ` +
    `with \`Retry-After\`. A rendering stops after ${VIEW_RENDERING_MS / 1000} s (503 \`validator_unavailable\`).` +
    FORMAT_NOTES[format]
  );
}

/** A rendering's answers: the bytes with the tag that names them, or 304 when the client has them. */
function renderingResponses(format: RenderFormat): Record<number, ResponseSpec> {
  const { contentType, name } = FORMATS[format];
  return {
    200: {
      description: name,
      schema: z.string().openapi({ format: 'binary' }),
      contentType: contentType.split(';')[0]!,
      headers: {
        ETag: { description: 'Names this rendering (the UBL, format and language)', schema: { type: 'string' } },
        'Cache-Control': {
          description: '`private, no-cache`: keep it, and ask again with `If-None-Match`',
          schema: { type: 'string' },
        },
      },
    },
    304: { description: 'Not modified: the `If-None-Match` tag names this rendering' },
  };
}

/** The document rendered in one format: the same checks, limits and keeping for every format. */
function renderingRoute(
  routes: RouteTable,
  { store, validator, cpu }: RenderingRouteDependencies,
  format: RenderFormat,
): void {
  const { contentType, name, operationId, extension } = FORMATS[format];
  routes.add({
    method: 'get',
    path: `/v1/documents/{id}/${format}`,
    operationId,
    summary: `The document as a ${name} a person reads`,
    description: renderingDescription(format),
    tags: ['Documents'],
    limitedKeys: true,
    params: documentParams,
    query: format === 'pdf' ? pdfQuery : languageQuery(format),
    responses: renderingResponses(format),
    errors: [
      'not_company_member',
      'document_not_found',
      'ubl_not_available',
      'document_not_renderable',
      'rendering_in_progress',
      'validator_unavailable',
    ],
    handler: async ({ auth, params, query, req, res, signal }) => {
      const document = await requireDocumentOf(store, auth, params.id, query.company_id);
      const ubl = await requireBusinessDocument(store, document);
      const tag = renderingTag(ubl, format, query.lang);
      res.set({ ETag: tag, 'Cache-Control': 'private, no-cache' });
      if (req.headers['if-none-match']?.split(',').some((candidate) => candidate.trim() === tag)) {
        res.status(304).end();
        return;
      }
      let rendered: Buffer;
      try {
        const asked = {
          documentId: document._id,
          ubl,
          tag,
          format,
          lang: query.lang,
          holder: auth.keyPrefix,
          signal,
          environment: document.environment,
        };
        rendered = await renderingOf({ store, validator, cpu }, asked);
      } catch (err) {
        if (err instanceof NotRenderableError) throw notRenderable(document._id, err.message);
        throw err;
      }
      if (format === 'html') res.set('Content-Security-Policy', HTML_POLICY);
      res
        .status(200)
        .type(contentType)
        .set('Content-Disposition', `inline; filename="${fileStemOf(document.number)}.${extension}"`)
        .send(rendered);
    },
  });
}
