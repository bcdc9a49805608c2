import { crc32 } from 'node:zlib';

import { ATTESTATION_VERSION } from '../../domain/kyc/attestation';
import { callAs, signUp, type TestAccount } from './accounts';
import { until } from './until';

/**
 * Files of each kind the KYC upload knows, made byte by byte, and the steps
 * that take a workspace to a submission.
 */

/** A ZIP of stored (uncompressed) entries with its central directory, as OOXML writers make them. */
export function zipOf(entries: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(entries)) {
    const nameBytes = Buffer.from(name, 'utf8');
    const data = Buffer.from(text, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt32LE(crc32(data), 16);
    entry.writeUInt32LE(data.length, 20);
    entry.writeUInt32LE(data.length, 24);
    entry.writeUInt16LE(nameBytes.length, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    directory.push(entry, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const directoryBytes = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(directoryBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directoryBytes, end]);
}

const CONTENT_TYPES =
  '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>';

export const files = {
  pdf: Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'),
  png: Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.from('\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x02\0\0\0', 'latin1'),
  ]),
  jpeg: Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
    Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1'),
    Buffer.from([0xff, 0xd9]),
  ]),
  xlsx: zipOf({
    '[Content_Types].xml': CONTENT_TYPES,
    '_rels/.rels': '<Relationships/>',
    'xl/workbook.xml': '<workbook/>',
    'xl/worksheets/sheet1.xml': '<worksheet/>',
  }),
  /** A Word document: OOXML too, but no spreadsheet. */
  docx: zipOf({ '[Content_Types].xml': CONTENT_TYPES, 'word/document.xml': '<document/>' }),
  zip: zipOf({ 'notes.txt': 'just an archive' }),
  /** An archive whose content mentions the spreadsheet names its directory does not list. */
  zipMentioningXl: zipOf({ 'notes.txt': '[Content_Types].xml xl/workbook.xml' }),
  gif: Buffer.from('GIF89a\x01\0\x01\0\0\0\0;', 'latin1'),
};

export const MIME = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpeg: 'image/jpeg',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export const WORKSPACE_DOC_TYPES = ['registry_extract', 'representative_id', 'authority_proof'] as const;

export function upload(key: string, body: Record<string, unknown>) {
  return callAs(key, '/v1/kyc/documents', { method: 'POST', body });
}

export const pdfUpload = (docType: string, extra: Record<string, unknown> = {}) => ({
  doc_type: docType,
  filename: `${docType}.pdf`,
  content: files.pdf.toString('base64'),
  ...extra,
});

/** A submission that passes every gate, for the own company given. */
export const completeSubmission = (companyId: string) => ({
  company_id: companyId,
  kyc_legal_name: 'Acme BV',
  kyc_enterprise_number: '0123.456.749',
  attestation_name: 'Ann Owner',
  attestation_role: 'Managing director',
  attested: true,
  attestation_version: ATTESTATION_VERSION,
});

export async function createCompany(key: string, name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const response = await callAs(key, '/v1/companies', { method: 'POST', body: { name, country: 'BE', ...extra } });
  if (response.status !== 201) throw new Error(`company: ${response.status} ${response.text}`);
  return response.body.id;
}

/** A fresh account whose workspace has its own company and the three workspace documents: ready to submit. */
export async function readyToSubmit(label = 'kyc'): Promise<TestAccount & { companyId: string }> {
  const account = await signUp(label);
  const companyId = await createCompany(account.key, 'Acme BV', { peppol_id: '0208:0123456749' });
  for (const docType of WORKSPACE_DOC_TYPES) {
    const response = await upload(account.key, pdfUpload(docType));
    if (response.status !== 201) throw new Error(`upload: ${response.status} ${response.text}`);
  }
  return { ...account, companyId };
}

export function submit(key: string, body: Record<string, unknown>) {
  return callAs(key, '/v1/kyc/submit', { method: 'POST', body });
}

/** Polls GET /v1/kyc until `done` holds. */
export function waitForKyc(key: string, done: (state: any) => boolean, timeoutMs = 20_000): Promise<any> {
  return until('the KYC state', async () => (await callAs(key, '/v1/kyc')).body, done, timeoutMs);
}
