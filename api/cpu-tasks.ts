import { checkXmlBounds, UBL_BOUNDS, type XmlBoundsCheck } from '../domain/xml-bounds';

/**
 * What the API's worker threads run (api/offload.ts): the request work whose
 * cost grows with the body. Each task takes and returns plain data.
 */

export { convertForCompany, readDocumentBody } from './document-input';

export function checkUblBounds({ xml }: { xml: Uint8Array }): XmlBoundsCheck {
  return checkXmlBounds(Buffer.from(xml.buffer, xml.byteOffset, xml.byteLength), UBL_BOUNDS);
}
