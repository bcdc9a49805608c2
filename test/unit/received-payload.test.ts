import { sbdPayload } from '../../domain/peppol/received-payload';

const ubl =
  '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><cbc:ID xmlns:cbc="x">Ä-1</cbc:ID></Invoice>';

describe('the payload of a received SBD', () => {
  it('when the envelope uses a prefix, then the payload is the bytes after the header, exactly', () => {
    const sbd = `<?xml version="1.0" encoding="UTF-8"?>\n<sh:StandardBusinessDocument xmlns:sh="http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader"><sh:StandardBusinessDocumentHeader><sh:HeaderVersion>1.0</sh:HeaderVersion></sh:StandardBusinessDocumentHeader>\n  ${ubl}\n</sh:StandardBusinessDocument>\n`;
    expect(sbdPayload(Buffer.from(sbd))?.toString('utf8')).toBe(ubl);
  });

  it('when the envelope uses the default namespace, then the payload is found too', () => {
    const sbd = `<StandardBusinessDocument xmlns="http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader"><StandardBusinessDocumentHeader><HeaderVersion>1.0</HeaderVersion></StandardBusinessDocumentHeader>${ubl}</StandardBusinessDocument>`;
    expect(sbdPayload(Buffer.from(sbd))?.equals(Buffer.from(ubl))).toBe(true);
  });

  it('when there is no header or no payload, then there is none', () => {
    expect(sbdPayload(Buffer.from(ubl))).toBeUndefined();
    expect(
      sbdPayload(
        Buffer.from(
          '<StandardBusinessDocument><StandardBusinessDocumentHeader></StandardBusinessDocumentHeader></StandardBusinessDocument>',
        ),
      ),
    ).toBeUndefined();
  });
});
