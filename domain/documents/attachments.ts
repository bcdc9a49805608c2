import mimeCodes from '../data/mime-codes.json';
import type { Violation } from './violation';

/** Largest decoded attachment; Peppol sets no number, access points commonly cap messages well above this. */
const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const WHITESPACE = /\s+/g;

/** The MIME types Peppol allows (data: domain/data/mime-codes.json). */
const ATTACHMENT_MIME_TYPES: ReadonlySet<string> = new Set(mimeCodes.codes);
const ALLOWED_LIST = mimeCodes.codes.join(', ');

/** The type the bytes themselves show, for the MIME types Peppol allows (BR-CL-24 / PEPPOL-EN16931-CL001). */
function sniff(bytes: Buffer): string | undefined {
  const startsWith = (...signature: number[]) => signature.every((byte, index) => bytes[index] === byte);
  if (startsWith(0x25, 0x50, 0x44, 0x46)) return 'application/pdf';
  if (startsWith(0x89, 0x50, 0x4e, 0x47)) return 'image/png';
  if (startsWith(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (startsWith(0x50, 0x4b, 0x03, 0x04)) return 'zip';
  if (!bytes.includes(0) && Buffer.from(bytes.toString('utf8'), 'utf8').equals(bytes)) return 'text';
  return undefined;
}

/** Spreadsheets are zip containers; CSV is text: the declared type must match what the bytes are. */
function matches(declared: string, sniffed: string | undefined): boolean {
  if (declared === 'text/csv') return sniffed === 'text';
  if (declared.startsWith('application/vnd.')) return sniffed === 'zip';
  return sniffed === declared;
}

/** The bytes of base64 text (whitespace, as XML wraps it, ignored); undefined when it is not base64, which Buffer alone would half-decode. */
export function decodeBase64(text: string): Buffer | undefined {
  const content = text.replace(WHITESPACE, '');
  return BASE64.test(content) && content.length % 4 === 0 ? Buffer.from(content, 'base64') : undefined;
}

export function checkAttachments(
  attachments: { filename: string; mime_type: string; content: string }[],
  out: Violation[],
): void {
  attachments.forEach((attachment, index) => {
    const path = `attachments[${index}]`;
    const allowed = ATTACHMENT_MIME_TYPES.has(attachment.mime_type);
    if (!allowed) {
      // The EN 16931 code list and Peppol's subset of it (PEPPOL-EN16931-CL001) both refuse it; BR-CL-24 is the base rule.
      out.push({
        path: `${path}.mime_type`,
        rule: 'BR-CL-24',
        message: `Peppol does not allow attachments of type ${attachment.mime_type}; use one of ${ALLOWED_LIST}.`,
      });
    }
    const bytes = decodeBase64(attachment.content);
    if (!bytes) {
      out.push({ path: `${path}.content`, rule: null, message: 'content is not valid base64.' });
      return;
    }
    if (bytes.length === 0) out.push({ path: `${path}.content`, rule: null, message: 'The attachment is empty.' });
    else if (bytes.length > MAX_ATTACHMENT_BYTES) {
      out.push({
        path: `${path}.content`,
        rule: null,
        message: `The attachment is ${bytes.length} bytes; at most ${MAX_ATTACHMENT_BYTES} are accepted.`,
      });
    } else if (allowed && !matches(attachment.mime_type, sniff(bytes))) {
      out.push({
        path: `${path}.mime_type`,
        rule: 'PEPPOL-EN16931-CL001',
        message: `The content is not ${attachment.mime_type} (its bytes do not match that type).`,
      });
    }
  });
}
