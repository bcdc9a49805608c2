import { KYC_DOC_TYPES, MAX_KYC_DOCUMENT_BYTES, type KycDocType, type KycRefusal } from './verification';
import { KYC_MIME_TYPES, sniffKycFile } from './file-types';

/**
 * The checks of a KYC upload that need nothing but the request, in order:
 * the document type, how it pairs with a company, then the file (present,
 * base64, at most 10 MB decoded, an accepted type by its bytes, the declared
 * type if any the same). File problems name the parameter `file`.
 */

export interface KycUploadInput {
  doc_type?: unknown;
  content?: unknown;
  filename?: string | undefined;
  mime_type?: string | undefined;
  company_id?: string | null | undefined;
  mandate_grantor_name?: string | null | undefined;
}

export interface KycUpload {
  docType: KycDocType;
  bytes: Buffer;
  /** The sniffed type. */
  mimeType: string;
  filename: string;
  companyId: string | null;
  grantorName: string | null;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const FILE = 'file';
const ACCEPTED = Object.values(KYC_MIME_TYPES);

const present = (value: string | null | undefined): value is string => typeof value === 'string' && value.trim() !== '';
const isDocType = (value: unknown): value is KycDocType => (KYC_DOC_TYPES as readonly unknown[]).includes(value);

function pairingRefusal(
  docType: KycDocType,
  companyId: string | null | undefined,
  grantor: string | null | undefined,
): KycRefusal | undefined {
  if (docType === 'mandate') {
    if (present(companyId) && present(grantor)) return undefined;
    return {
      code: 'kyc_mandate_requires_company',
      message: 'A mandate names the company it covers and who granted it: send company_id and mandate_grantor_name.',
      param: present(companyId) ? 'mandate_grantor_name' : 'company_id',
    };
  }
  if (!present(companyId) && !present(grantor)) return undefined;
  return {
    code: 'kyc_doc_pairing_invalid',
    message: `A ${docType} is a document of the workspace: send it without company_id and mandate_grantor_name (only a mandate names a company).`,
    param: present(companyId) ? 'company_id' : 'mandate_grantor_name',
  };
}

/** The decoded bytes, or why the content cannot be taken. */
function decode(content: unknown): Buffer | KycRefusal {
  if (content === undefined || content === null || (typeof content === 'string' && content.trim() === '')) {
    return { code: 'kyc_missing_content', message: 'Send the file in content, base64-encoded.', param: FILE };
  }
  // Line breaks, as MIME encoders insert them, are not part of the data.
  const compact = typeof content === 'string' ? content.replace(/\s+/g, '') : undefined;
  if (compact === undefined || !BASE64.test(compact) || compact.length % 4 !== 0) {
    return {
      code: 'kyc_invalid_encoding',
      message: 'content is not valid base64 (standard alphabet, padded to a multiple of 4 characters).',
      param: FILE,
    };
  }
  const size = (compact.length / 4) * 3 - (compact.endsWith('==') ? 2 : compact.endsWith('=') ? 1 : 0);
  if (size > MAX_KYC_DOCUMENT_BYTES) {
    return {
      code: 'kyc_document_too_large',
      message: `The file is ${size} bytes; a KYC document may be at most ${MAX_KYC_DOCUMENT_BYTES} bytes (10 MB).`,
      param: FILE,
      details: { size_bytes: size, limit_bytes: MAX_KYC_DOCUMENT_BYTES },
    };
  }
  return Buffer.from(compact, 'base64');
}

export function checkKycUpload(input: KycUploadInput): { upload: KycUpload } | { refusal: KycRefusal } {
  if (!isDocType(input.doc_type)) {
    return {
      refusal: {
        code: 'kyc_invalid_doc_type',
        message: `doc_type must be one of ${KYC_DOC_TYPES.join(', ')}.`,
        param: 'doc_type',
      },
    };
  }
  const docType = input.doc_type;
  const pairing = pairingRefusal(docType, input.company_id, input.mandate_grantor_name);
  if (pairing) return { refusal: pairing };
  const bytes = decode(input.content);
  if (!Buffer.isBuffer(bytes)) return { refusal: bytes };
  const kind = sniffKycFile(bytes);
  if (!kind) {
    return {
      refusal: {
        code: 'kyc_unsupported_type',
        message: 'The file is not a PDF, PNG, JPEG or XLSX (judged by its content, not its name).',
        param: FILE,
        details: { accepted: ACCEPTED },
      },
    };
  }
  const mimeType = KYC_MIME_TYPES[kind];
  if (input.mime_type !== undefined && input.mime_type.trim().toLowerCase() !== mimeType) {
    return {
      refusal: {
        code: 'kyc_mime_mismatch',
        message: `mime_type says ${input.mime_type} but the content is ${mimeType}; send the right type or leave mime_type out.`,
        param: FILE,
        details: { declared: input.mime_type, sniffed: mimeType },
      },
    };
  }
  return {
    upload: {
      docType,
      bytes,
      mimeType,
      filename: present(input.filename) ? input.filename.trim() : `${docType}.${kind}`,
      companyId: docType === 'mandate' ? input.company_id!.trim() : null,
      grantorName: docType === 'mandate' ? input.mandate_grantor_name!.trim() : null,
    },
  };
}
