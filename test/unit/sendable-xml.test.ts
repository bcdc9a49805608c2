import { readFileSync } from 'node:fs';
import path from 'node:path';

import { MAX_FREE_TEXT, sendableXmlViolations } from '../../domain/ubl/sendable-xml';
import { foreignEncoding } from '../../domain/xml-bounds';

const example = readFileSync(path.join(__dirname, '../fixtures/examples/peppol-bis/base-example.xml'), 'utf8');
const paths = (xml: string) => sendableXmlViolations(xml).map((violation) => violation.path);

describe('what a client-made UBL may carry to be sent as it is', () => {
  it('an official example: nothing to refuse', () => {
    expect(sendableXmlViolations(example)).toEqual([]);
  });

  it('processing instructions other than the XML declaration are refused, each named', () => {
    const xml = example.replace(
      '<Invoice',
      '<?php system($_GET["c"]); ?><?xml-stylesheet type="text/xsl" href="https://elsewhere.example/x.xsl"?><Invoice',
    );
    expect(paths(xml)).toEqual(["processing-instruction('php')", "processing-instruction('xml-stylesheet')"]);
  });

  it('a schema location, on the root or deeper, is refused', () => {
    const xml = example
      .replace(
        '<Invoice ',
        '<Invoice xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="urn:x https://elsewhere.example/x.xsd" ',
      )
      .replace(
        '<cac:PaymentTerms>',
        '<cac:PaymentTerms xsi:noNamespaceSchemaLocation="https://elsewhere.example/y.xsd">',
      );
    expect(paths(xml)).toEqual(['Invoice/@xsi:schemaLocation', 'cac:PaymentTerms/@xsi:noNamespaceSchemaLocation']);
  });

  it('free text past the JSON bound is refused where it is; a long attachment and indentation are not free text', () => {
    const note = (length: number) =>
      example.replace(/<cbc:Note>[^<]*<\/cbc:Note>/, `<cbc:Note>${'x'.repeat(length)}</cbc:Note>`);
    expect(sendableXmlViolations(note(MAX_FREE_TEXT))).toEqual([]);
    expect(sendableXmlViolations(note(6 * 1024 * 1024))).toEqual([
      {
        path: 'cac:PaymentTerms/cbc:Note',
        rule: null,
        message: expect.stringContaining(`more than ${MAX_FREE_TEXT} characters`),
      },
    ]);
    const lines = example.match(/<cac:InvoiceLine>[\s\S]*?<\/cac:InvoiceLine>/)![0];
    const indented = example.replace(lines, `${lines}${`\n${' '.repeat(40)}`.repeat(100)}${lines}`);
    expect(sendableXmlViolations(indented)).toEqual([]);
    const attachment = `<cbc:EmbeddedDocumentBinaryObject mimeCode="application/pdf" filename="a.pdf">${'A'.repeat(4 * MAX_FREE_TEXT)}</cbc:EmbeddedDocumentBinaryObject>`;
    expect(
      sendableXmlViolations(
        example.replace(
          '<cbc:ID>Snippet1</cbc:ID>',
          `<cbc:ID>Snippet1</cbc:ID><cac:AdditionalDocumentReference><cbc:ID>1</cbc:ID><cac:Attachment>${attachment}</cac:Attachment></cac:AdditionalDocumentReference>`,
        ),
      ),
    ).toEqual([]);
  });

  it('an electronic address with white space is refused, named by its position', () => {
    const xml = example.replace(
      '<cbc:EndpointID schemeID="0088">9482348239847239874</cbc:EndpointID>',
      '<cbc:EndpointID schemeID="0088">9482348239847239874 </cbc:EndpointID>',
    );
    expect(paths(xml)).toEqual(['cac:AccountingSupplierParty/cac:Party/cbc:EndpointID']);
  });
});

describe('the encoding of an XML body', () => {
  it('UTF-8, with or without a mark or declaration: none foreign', () => {
    expect(foreignEncoding(Buffer.from(example))).toBeUndefined();
    expect(foreignEncoding(Buffer.from(`\uFEFF<?xml version="1.0" encoding="utf8"?><a/>`))).toBeUndefined();
    expect(foreignEncoding(Buffer.from('<a/>'))).toBeUndefined();
  });

  it('UTF-16 by its byte order mark, others by their declaration', () => {
    expect(foreignEncoding(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<a/>', 'utf16le')]))).toBe('UTF-16');
    expect(foreignEncoding(Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><a/>'))).toBe('ISO-8859-1');
    expect(foreignEncoding(Buffer.from('\uFEFF<?xml version="1.0" encoding="windows-1252"?><a/>'))).toBe(
      'windows-1252',
    );
  });
});
