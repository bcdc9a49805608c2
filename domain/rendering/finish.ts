import type { Environment } from '../environment';
import type { safeRenderedPage } from './safe-html';
import { renderingNoticeFor } from './sandbox-notice';

/**
 * Which way renderings are made and finished. It is part of a rendering's name (its ETag, and the key it is
 * kept under), so raise it whenever the finishing changes, or what the validator's renderer draws (4: our
 * labels, formats and tidied form over KoSIT's viewer): a page made or finished the old way, perhaps not safe
 * or mislabelled, is then neither served from what was kept nor confirmed to a client holding it (304).
 */
export const FINISHING_VERSION = 4;

/** Runs {@link safeRenderedPage}, where the caller wants it run (the API: on a worker thread). */
export type SafePageStep = (page: Parameters<typeof safeRenderedPage>[0]) => Promise<string> | string;

/**
 * The renderer's answer as every reader gets it (the API, and through it the SDK and the MCP server):
 * HTML made safe to open anywhere, a sandbox document's saying its sender is unverified. A PDF (or
 * Factur-X) is finished as it comes: the renderer stamps a sandbox one itself (asked with
 * renderingNoticeFor), in the layout's embedded font, so a PDF/A stays one.
 */
export async function finishedRendering(
  rendered: Buffer,
  format: 'html' | 'pdf' | 'facturx',
  environment: Environment,
  safePage: SafePageStep,
): Promise<Buffer> {
  if (format !== 'html') return rendered;
  return Buffer.from(await safePage({ html: rendered, notice: renderingNoticeFor(environment) }));
}
