import { ciiOfUbl } from '../../domain/cii/write';
import { routingOf, RoutingError, type PeppolRouting } from '../../domain/peppol/envelope';
import { documentLines } from '../../domain/rendering-bounds';
import { checkXmlBounds, UBL_BOUNDS, type XmlBoundsCheck } from '../../domain/xml-bounds';

/**
 * What the API's worker threads run (api/public/cpu-pool.ts): the request work whose
 * cost grows with the body. Each task takes and returns plain data.
 */

export { convertForCompany, readDocumentBody } from './document-input';
export { readPostedUbl } from './ubl-document-input';
export { safeRenderedPage } from '../../domain/rendering/safe-html';

/** A stored document's UBL as CII (GET /v1/documents/{id}/cii, and a Factur-X's XML): reading and writing grow with the document. */
export function ciiOfStoredUbl({
  xml,
  facturx,
}: {
  xml: Uint8Array;
  facturx?: boolean;
}): { cii: string } | { unsupported: string } {
  return ciiOfUbl(Buffer.from(xml.buffer, xml.byteOffset, xml.byteLength), { facturx });
}

export function checkUblBounds({ xml }: { xml: Uint8Array }): XmlBoundsCheck {
  return checkXmlBounds(Buffer.from(xml.buffer, xml.byteOffset, xml.byteLength), UBL_BOUNDS);
}

/** A UBL document measured before it is rendered: the XML bounds, and its lines. */
export function measureForRendering({ xml }: { xml: Uint8Array }): { bounds: XmlBoundsCheck; lines: number } {
  const bytes = Buffer.from(xml.buffer, xml.byteOffset, xml.byteLength);
  return { bounds: checkXmlBounds(bytes, UBL_BOUNDS), lines: documentLines(bytes.toString('utf8')) };
}

/** The routing of a UBL document within the bounds (sender, receiver, document type), or why it has none: parsing it is work that grows with the body. */
export function routeUbl({
  xml,
}: {
  xml: Uint8Array;
}): { ok: true; routing: PeppolRouting } | { ok: false; problem: string } {
  try {
    return { ok: true, routing: routingOf(Buffer.from(xml.buffer, xml.byteOffset, xml.byteLength).toString('utf8')) };
  } catch (err) {
    if (err instanceof RoutingError) return { ok: false, problem: err.message };
    throw err;
  }
}
