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
