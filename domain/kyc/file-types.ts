/**
 * The type of a KYC document, told by its bytes alone (never by its name or
 * a declared type): PDF, PNG, JPEG, or an XLSX workbook. An XLSX is a ZIP,
 * but not every ZIP is one: its central directory (the ZIP's table of
 * contents, at its end) must list `[Content_Types].xml` and entries under
 * `xl/`, as every OOXML spreadsheet does; a Word file (`word/`) or any other
 * archive is not accepted.
 */

export const KYC_MIME_TYPES = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpeg: 'image/jpeg',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

export type KycFileKind = keyof typeof KYC_MIME_TYPES;

const startsWith = (bytes: Buffer, signature: number[]) =>
  bytes.length >= signature.length && signature.every((byte, index) => bytes[index] === byte);

const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const ZIP_LOCAL_HEADER = [0x50, 0x4b, 0x03, 0x04];

const END_OF_DIRECTORY = 0x06054b50;
const END_OF_DIRECTORY_SIZE = 22;
const DIRECTORY_ENTRY = 0x02014b50;
const DIRECTORY_ENTRY_SIZE = 46;
/** The archive comment after the end record is at most this long, which bounds the search for it. */
const MAX_COMMENT = 0xffff;

/**
 * The entry names listed in a ZIP's central directory, or undefined when the
 * bytes hold no consistent one (every offset is checked against the buffer).
 * @internal
 */
export function zipEntryNames(bytes: Buffer): string[] | undefined {
  const lowest = Math.max(0, bytes.length - END_OF_DIRECTORY_SIZE - MAX_COMMENT);
  let end = -1;
  for (let at = bytes.length - END_OF_DIRECTORY_SIZE; at >= lowest; at -= 1) {
    if (
      bytes.readUInt32LE(at) === END_OF_DIRECTORY &&
      at + END_OF_DIRECTORY_SIZE + bytes.readUInt16LE(at + 20) === bytes.length
    ) {
      end = at;
      break;
    }
  }
  if (end < 0) return undefined;
  const count = bytes.readUInt16LE(end + 10);
  const size = bytes.readUInt32LE(end + 12);
  const start = bytes.readUInt32LE(end + 16);
  if (start + size > end) return undefined;
  const names: string[] = [];
  let at = start;
  for (let entry = 0; entry < count; entry += 1) {
    if (at + DIRECTORY_ENTRY_SIZE > start + size || bytes.readUInt32LE(at) !== DIRECTORY_ENTRY) return undefined;
    const nameLength = bytes.readUInt16LE(at + 28);
    const next = at + DIRECTORY_ENTRY_SIZE + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
    if (next > start + size) return undefined;
    names.push(bytes.toString('utf8', at + DIRECTORY_ENTRY_SIZE, at + DIRECTORY_ENTRY_SIZE + nameLength));
    at = next;
  }
  return names;
}

function isSpreadsheet(bytes: Buffer): boolean {
  if (!startsWith(bytes, ZIP_LOCAL_HEADER)) return false;
  const names = zipEntryNames(bytes);
  return names !== undefined && names.includes('[Content_Types].xml') && names.some((name) => name.startsWith('xl/'));
}

/** What the bytes are, of the accepted kinds; undefined for anything else. */
export function sniffKycFile(bytes: Buffer): KycFileKind | undefined {
  if (startsWith(bytes, PDF)) return 'pdf';
  if (startsWith(bytes, PNG)) return 'png';
  if (startsWith(bytes, JPEG)) return 'jpeg';
  if (isSpreadsheet(bytes)) return 'xlsx';
  return undefined;
}
