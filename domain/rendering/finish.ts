import type { Environment } from '../environment';
import { safeRenderedHtml } from './safe-html';
import { renderingNoticeFor, stampedPdf } from './sandbox-notice';

/**
 * The renderer's answer as every reader gets it (the API, and through it the SDK and the MCP server):
 * HTML made safe to open anywhere, and a sandbox document's HTML or PDF saying its sender is unverified.
 */
export async function finishedRendering(rendered: Buffer, format: 'html' | 'pdf', environment: Environment): Promise<Buffer> {
  const notice = renderingNoticeFor(environment);
  if (format === 'html') return Buffer.from(safeRenderedHtml(rendered.toString('utf8'), notice));
  return notice ? stampedPdf(rendered, notice) : rendered;
}
