import { childNamed, childrenNamed, parseXml, XmlError, type XmlElement } from '../xml-tree';

/**
 * The business document inside a received Standard Business Document: the
 * bytes between the end of the SBDH and the end of the envelope, exactly as
 * the sender wrote them (the service keeps and serves them as they arrived).
 * The access point has already read the SBD with the Peppol SBDH reader, so
 * only its two boundaries are searched for here. Peppol payloads are UTF-8
 * (Business Message Envelope 2.0), so a text search finds byte positions.
 */

const HEADER_END = /<\/(?:[A-Za-z_][\w.-]*:)?StandardBusinessDocumentHeader\s*>/;
const ENVELOPE_END = /<\/(?:[A-Za-z_][\w.-]*:)?StandardBusinessDocument\s*>\s*$/;

/** The payload's bytes, trimmed of the whitespace around it; undefined when `sbd` is not an SBD with one. */
export function sbdPayload(sbd: Buffer): Buffer | undefined {
  const text = sbd.toString('utf8');
  const header = HEADER_END.exec(text);
  const envelope = ENVELOPE_END.exec(text);
  if (!header || !envelope || envelope.index <= header.index) return undefined;
  const payload = text.slice(header.index + header[0].length, envelope.index).trim();
  return payload.startsWith('<') ? Buffer.from(payload, 'utf8') : undefined;
}

const SBDH = 'http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader';

/** What a receiving access point reads in an SBDH besides routing: the envelope's id and whether (and where) to send an MLS. */
export interface SbdhFacts {
  instanceId: string | null;
  sender: string | null;
  receiver: string | null;
  /** `MLS_TO` and `MLS_TYPE` as written, or null when absent. */
  mlsTo: string | null;
  mlsType: string | null;
}

/** Reads the header of an SBD (only the header is parsed: the payload may be large); undefined when there is none. */
export function sbdhFacts(sbd: Buffer | string): SbdhFacts | undefined {
  const text = typeof sbd === 'string' ? sbd : sbd.toString('utf8');
  const end = HEADER_END.exec(text);
  const start = /<(?:[A-Za-z_][\w.-]*:)?StandardBusinessDocumentHeader[\s>]/.exec(text);
  if (!end || !start || end.index < start.index) return undefined;
  // The header alone, with the default namespace the envelope may declare on its parent.
  const header = text.slice(start.index, end.index + end[0].length);
  const prefix = /^<([A-Za-z_][\w.-]*):/.exec(header)?.[1];
  const declaration = prefix ? `xmlns:${prefix}` : 'xmlns';
  const startTag = header.slice(0, header.indexOf('>'));
  const declared = startTag.includes(`${declaration}=`)
    ? header
    : header.replace(/^<([^\s>]+)/, `<$1 ${declaration}="${SBDH}"`);
  let root;
  try {
    root = parseXml(declared);
  } catch (err) {
    if (err instanceof XmlError) return undefined;
    throw err;
  }
  const text_ = (element: XmlElement | undefined) => element?.text || null;
  const identification = childNamed(root, SBDH, 'DocumentIdentification');
  const scope = (type: string) =>
    childrenNamed(childNamed(root, SBDH, 'BusinessScope') ?? root, SBDH, 'Scope').find(
      (entry) => text_(childNamed(entry, SBDH, 'Type')) === type,
    );
  const instance = (type: string) => {
    const found = scope(type);
    return found ? text_(childNamed(found, SBDH, 'InstanceIdentifier')) : null;
  };
  return {
    instanceId: identification ? text_(childNamed(identification, SBDH, 'InstanceIdentifier')) : null,
    sender: text_(childNamed(childNamed(root, SBDH, 'Sender') ?? root, SBDH, 'Identifier')),
    receiver: text_(childNamed(childNamed(root, SBDH, 'Receiver') ?? root, SBDH, 'Identifier')),
    mlsTo: instance('MLS_TO'),
    mlsType: instance('MLS_TYPE'),
  };
}
