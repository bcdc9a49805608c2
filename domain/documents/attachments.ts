import type { Violation } from './rules';

/** Largest decoded attachment; Peppol sets no number, access points commonly cap messages well above this. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

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

export function checkAttachments(attachments: { filename: string; mime_type: string; content: string }[], out: Violation[]): void {
  attachments.forEach((attachment, index) => {
    const path = `attachments[${index}]`;
    const content = attachment.content.replace(/\s+/g, '');
    if (!BASE64.test(content) || content.length % 4 !== 0) {
      out.push({ path: `${path}.content`, rule: null, message: 'content is not valid base64.' });
      return;
    }
    const bytes = Buffer.from(content, 'base64');
    if (bytes.length === 0) out.push({ path: `${path}.content`, rule: null, message: 'The attachment is empty.' });
    else if (bytes.length > MAX_ATTACHMENT_BYTES) {
      out.push({ path: `${path}.content`, rule: null, message: `The attachment is ${bytes.length} bytes; at most ${MAX_ATTACHMENT_BYTES} are accepted.` });
    } else if (!matches(attachment.mime_type, sniff(bytes))) {
      out.push({ path: `${path}.mime_type`, rule: 'PEPPOL-EN16931-CL001', message: `The content is not ${attachment.mime_type} (its bytes do not match that type).` });
    }
  });
}
