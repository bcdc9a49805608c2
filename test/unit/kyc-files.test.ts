import { sniffKycFile, zipEntryNames } from '../../domain/kyc/file-types';
import { checkKycUpload } from '../../domain/kyc/upload-checks';
import { files, zipOf } from '../support/kyc';

describe('KYC files by their bytes', () => {
  it.each([
    ['a PDF', files.pdf, 'pdf'],
    ['a PNG', files.png, 'png'],
    ['a JPEG', files.jpeg, 'jpeg'],
    ['an XLSX workbook', files.xlsx, 'xlsx'],
  ])('when the bytes are %s, then that is the type', (_case, bytes, kind) => {
    expect(sniffKycFile(bytes)).toBe(kind);
  });

  it.each([
    ['a Word document (OOXML without xl/)', files.docx],
    ['a plain ZIP', files.zip],
    ['a ZIP whose content, not its directory, names the spreadsheet parts', files.zipMentioningXl],
    ['a GIF', files.gif],
    ['text', Buffer.from('registry extract')],
    ['nothing', Buffer.alloc(0)],
    ['a truncated workbook', files.xlsx.subarray(0, files.xlsx.length - 30)],
  ])('when the bytes are %s, then no accepted type is recognised', (_case, bytes) => {
    expect(sniffKycFile(bytes)).toBeUndefined();
  });

  it('when a ZIP carries an archive comment, then its directory is still found', () => {
    const zip = zipOf({ '[Content_Types].xml': '<Types/>', 'xl/workbook.xml': '<workbook/>' });
    const comment = Buffer.from('written by a spreadsheet program');
    zip.writeUInt16LE(comment.length, zip.length - 2);
    expect(zipEntryNames(Buffer.concat([zip, comment]))).toEqual(['[Content_Types].xml', 'xl/workbook.xml']);
  });

  it('when a directory entry points past the directory, then the ZIP is not read', () => {
    const zip = Buffer.from(files.xlsx);
    const directoryStart = zip.readUInt32LE(zip.length - 6);
    zip.writeUInt16LE(0xffff, directoryStart + 28);
    expect(zipEntryNames(zip)).toBeUndefined();
  });
});

describe('the checks of a KYC upload', () => {
  const content = files.pdf.toString('base64');

  it('when several things are wrong, then the document type is named first, then the pairing, then the file', () => {
    expect(checkKycUpload({ doc_type: 'passport', content: '!!' })).toMatchObject({
      refusal: { code: 'kyc_invalid_doc_type', param: 'doc_type' },
    });
    expect(checkKycUpload({ doc_type: 'mandate', content: '!!' })).toMatchObject({
      refusal: { code: 'kyc_mandate_requires_company', param: 'company_id' },
    });
    expect(checkKycUpload({ doc_type: 'registry_extract', company_id: 'com_x', content: '!!' })).toMatchObject({
      refusal: { code: 'kyc_doc_pairing_invalid', param: 'company_id' },
    });
    expect(checkKycUpload({ doc_type: 'registry_extract', content: '!!' })).toMatchObject({
      refusal: { code: 'kyc_invalid_encoding', param: 'file' },
    });
  });

  it('when base64 is wrapped in lines, then it is decoded as one', () => {
    const wrapped = content.replace(/(.{16})/g, '$1\r\n');
    expect(checkKycUpload({ doc_type: 'registry_extract', content: wrapped })).toMatchObject({
      upload: { mimeType: 'application/pdf', filename: 'registry_extract.pdf' },
    });
  });

  it('when the declared type differs only in case, then it is the same type', () => {
    expect(checkKycUpload({ doc_type: 'registry_extract', content, mime_type: 'Application/PDF' })).toHaveProperty(
      'upload',
    );
  });
});
