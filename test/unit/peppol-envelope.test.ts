import { convertDocument } from '../../domain/documents/convert';
import { documentInputSchema } from '../../domain/documents/input';
import { BIS_BILLING_CREDIT_NOTE, BIS_BILLING_INVOICE, BIS_BILLING_PROCESS } from '../../domain/peppol/capabilities';
import {
  envelopedPayload,
  nameBasedUuid,
  RoutingError,
  routingOf,
  standardBusinessDocument,
} from '../../domain/peppol/envelope';
import { childrenNamed, parseXml } from '../../domain/xml-tree';
import { validFixtures } from '../fixtures/documents';

const SBDH = 'http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader';

function ublOf(name: string): string {
  const fixture = validFixtures.find((candidate) => candidate.name === name)!;
  const result = convertDocument(documentInputSchema.parse(fixture.body), fixture.company);
  if (!result.ok) throw new Error(`${name} does not convert`);
  return result.ubl;
}

const invoice = ublOf('standard rate S, one line');
const creditNote = ublOf('credit note with invoice reference and due date');
const envelope = { instanceId: nameBasedUuid('doc_1'), createdAt: new Date('2026-11-23T10:15:00Z') };

describe('routing a UBL document on Peppol', () => {
  it('when an invoice is read, then sender and receiver are the seller and buyer EndpointIDs, with the BIS Billing invoice type, process and the seller country', () => {
    expect(routingOf(invoice)).toEqual({
      kind: 'invoice',
      root: { namespace: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2', name: 'Invoice' },
      documentType: BIS_BILLING_INVOICE,
      process: BIS_BILLING_PROCESS,
      sender: '0208:0123456749',
      receiver: '0208:0987654394',
      countryC1: 'BE',
    });
  });

  it('when a credit note is read, then its document type is the BIS Billing credit note', () => {
    expect(routingOf(creditNote)).toMatchObject({ kind: 'credit_note', documentType: BIS_BILLING_CREDIT_NOTE });
  });

  it('when the buyer has no EndpointID, or the XML is not a UBL invoice, then a RoutingError says what is missing', () => {
    const withoutBuyerEndpoint = invoice.replace(
      /(<cac:AccountingCustomerParty>\s*<cac:Party>\s*)<cbc:EndpointID[^>]*>[^<]*<\/cbc:EndpointID>/,
      '$1',
    );
    expect(() => routingOf(withoutBuyerEndpoint)).toThrow(
      new RoutingError(
        'the buyer has no electronic address (cac:AccountingCustomerParty/cac:Party/cbc:EndpointID with @schemeID)',
      ),
    );
    expect(() => routingOf('<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"/>')).toThrow(
      RoutingError,
    );
    expect(() => routingOf('<Invoice')).toThrow(/not well-formed/);
  });
});

describe('the SBDH envelope', () => {
  const sbd = standardBusinessDocument(invoice, routingOf(invoice), envelope);

  it('when a document is enveloped, then the UBL after its XML declaration is carried byte for byte as the second child', () => {
    const header = '</StandardBusinessDocumentHeader>';
    expect(sbd.slice(sbd.indexOf(header) + header.length, sbd.lastIndexOf('</StandardBusinessDocument>'))).toBe(
      envelopedPayload(invoice),
    );
    expect(envelopedPayload(invoice)).toBe(invoice.slice(invoice.indexOf('<Invoice')));
    const root = parseXml(sbd);
    expect([root.namespace, root.name]).toEqual([SBDH, 'StandardBusinessDocument']);
    expect(root.children.map((child) => child.name)).toEqual(['StandardBusinessDocumentHeader', 'Invoice']);
  });

  it('when the header is read, then it names the participants, the UBL standard, the envelope id and time, and the DOCUMENTID, PROCESSID and COUNTRY_C1 scopes', () => {
    const header = childrenNamed(parseXml(sbd), SBDH, 'StandardBusinessDocumentHeader')[0]!;
    const text = (...names: string[]) =>
      names.reduce((element, name) => childrenNamed(element, SBDH, name)[0]!, header).text;
    expect(text('Sender', 'Identifier')).toBe('0208:0123456749');
    expect(text('Receiver', 'Identifier')).toBe('0208:0987654394');
    expect(childrenNamed(childrenNamed(header, SBDH, 'Sender')[0]!, SBDH, 'Identifier')[0]!.attributes.Authority).toBe(
      'iso6523-actorid-upis',
    );
    expect(text('DocumentIdentification', 'Standard')).toBe('urn:oasis:names:specification:ubl:schema:xsd:Invoice-2');
    expect(text('DocumentIdentification', 'Type')).toBe('Invoice');
    expect(text('DocumentIdentification', 'TypeVersion')).toBe('2.1');
    expect(text('DocumentIdentification', 'InstanceIdentifier')).toBe(envelope.instanceId);
    expect(text('DocumentIdentification', 'CreationDateAndTime')).toBe('2026-11-23T10:15:00.000Z');
    const scopes = childrenNamed(childrenNamed(header, SBDH, 'BusinessScope')[0]!, SBDH, 'Scope').map((scope) =>
      scope.children.map((child) => child.text),
    );
    expect(scopes).toEqual([
      ['DOCUMENTID', BIS_BILLING_INVOICE.value, 'busdox-docid-qns'],
      ['PROCESSID', BIS_BILLING_PROCESS.value, 'cenbii-procid-ubl'],
      ['COUNTRY_C1', 'BE'],
    ]);
  });

  it('when the same document is enveloped again, then the envelope is the same bytes; another document gets another envelope id', () => {
    expect(
      standardBusinessDocument(invoice, routingOf(invoice), {
        instanceId: nameBasedUuid('doc_1'),
        createdAt: envelope.createdAt,
      }),
    ).toBe(sbd);
    expect(nameBasedUuid('doc_1')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(nameBasedUuid('doc_2')).not.toBe(nameBasedUuid('doc_1'));
  });
});
