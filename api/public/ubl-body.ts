import { foreignEncoding, UBL_BOUNDS, type XmlBoundsCheck } from '../../domain/xml-bounds';
import { ApiError } from '../http/errors';
import type { CpuPool } from './cpu-pool';

/**
 * A UBL document posted as the body (the public validator, the sandbox
 * inbound endpoint): refused before anything else reads it when it is empty,
 * not well-formed, or past the bounds of nesting and size (measured on a
 * worker thread).
 */

export const notWellFormedXml = (why: string) =>
  new ApiError('invalid_xml', `The body is not well-formed XML: ${why}.`);

/** A body in another encoding than UTF-8 (`encoding` says which, or that the bytes are not UTF-8). */
export const notUtf8Xml = (encoding: string) =>
  new ApiError(
    'invalid_xml',
    `The body is ${encoding}; Peppol BIS Billing 3.0 documents are UTF-8 only: re-encode it as UTF-8 and send it again.`,
  );

/** XML that is none of the kinds the route takes; `wanted` names them ("a UBL 2.1 Invoice or CreditNote"). */
export const notUblDocument = (why: string, wanted: string) =>
  new ApiError('not_ubl_document', `${why}; send ${wanted}.`);

/** Why a UBL document from outside is refused: the bound it passed, and where. */
function tooComplex(check: Extract<XmlBoundsCheck, { problem: 'too_deep' | 'too_many_elements' }>): ApiError {
  const passedBound =
    check.problem === 'too_deep'
      ? `nests elements deeper than ${check.limit} levels`
      : `holds more than ${check.limit} elements`;
  return new ApiError(
    'xml_too_complex',
    `The document ${passedBound} (line ${check.line}, column ${check.column}); this service validates UBL up to ${UBL_BOUNDS.maxDepth} levels deep and ${UBL_BOUNDS.maxElements} elements.`,
    {
      details: {
        limit: check.problem === 'too_deep' ? 'depth' : 'elements',
        maximum: check.limit,
        line: check.line,
        column: check.column,
      },
    },
  );
}

export async function requireMeasurableUbl(cpu: CpuPool, xml: Buffer): Promise<void> {
  if (xml.length === 0) throw new ApiError('invalid_xml', 'The body is empty; send the UBL document.');
  const encoding = foreignEncoding(xml);
  if (encoding) throw notUtf8Xml(`encoded as ${encoding}`);
  const bounds = await cpu.run('checkUblBounds', { xml });
  if (bounds.ok) return;
  throw bounds.problem === 'not_well_formed' || bounds.problem === 'doctype'
    ? notWellFormedXml(bounds.message)
    : tooComplex(bounds);
}
