import {
  INVOICE_RESPONSE,
  MESSAGE_LEVEL_STATUS,
  BIS_BILLING_PROCESS,
  BIS_BILLING_INVOICE,
  processOf,
} from '../../domain/peppol/capabilities';
import { standardBusinessDocument, type EnvelopeRouting } from '../../domain/peppol/envelope';
import { serviceProviderParticipant } from '../../domain/peppol/ids';
import { sbdhFacts, sbdPayload } from '../../domain/peppol/received-payload';
import { responseOf } from '../../ops/network-respond';

const routing: EnvelopeRouting = {
  root: { namespace: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2', name: 'Invoice' },
  documentType: { scheme: 'busdox-docid-qns', value: 'doc' },
  process: BIS_BILLING_PROCESS,
  sender: '0208:0123456749',
  receiver: '0208:0987654394',
  countryC1: 'BE',
};
const ubl =
  '<?xml version="1.0" encoding="UTF-8"?>\n<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><ID>1</ID></Invoice>';

describe('the envelope asks for Message Level Status', () => {
  it('when MLS is requested, then MLS_TO names the service provider participant (iso6523-actorid-upis) and MLS_TYPE the kind, and a reader finds both with the instance id', () => {
    const sbd = standardBusinessDocument(ubl, routing, {
      instanceId: 'instance-1',
      createdAt: new Date(0),
      mls: { to: '0242:000001', type: 'ALWAYS_SEND' },
    });
    expect(sbd).toContain(
      '<Scope><Type>MLS_TO</Type><InstanceIdentifier>0242:000001</InstanceIdentifier><Identifier>iso6523-actorid-upis</Identifier></Scope>',
    );
    expect(sbd).toContain('<Scope><Type>MLS_TYPE</Type><InstanceIdentifier>ALWAYS_SEND</InstanceIdentifier></Scope>');
    expect(sbdhFacts(sbd)).toEqual({
      instanceId: 'instance-1',
      sender: routing.sender,
      receiver: routing.receiver,
      mlsTo: '0242:000001',
      mlsType: 'ALWAYS_SEND',
    });
    expect(sbdPayload(Buffer.from(sbd))?.toString()).toContain('<ID>1</ID>');
  });

  it('when none is requested (an MLS itself), then the header has no MLS scope', () => {
    const sbd = standardBusinessDocument(ubl, routing, { instanceId: 'instance-2', createdAt: new Date(0) });
    expect(sbd).not.toContain('MLS_');
    expect(sbdhFacts(sbd)).toMatchObject({ instanceId: 'instance-2', mlsTo: null, mlsType: null });
  });

  it('when the header uses a prefix, then it is read all the same; no header, nothing', () => {
    const prefixed =
      '<sh:StandardBusinessDocument xmlns:sh="http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader"><sh:StandardBusinessDocumentHeader><sh:DocumentIdentification><sh:InstanceIdentifier>x</sh:InstanceIdentifier></sh:DocumentIdentification></sh:StandardBusinessDocumentHeader><Invoice/></sh:StandardBusinessDocument>';
    expect(sbdhFacts(prefixed)).toMatchObject({ instanceId: 'x' });
    expect(sbdhFacts(ubl)).toBeUndefined();
  });

  it('when a seat id is given, then the service provider participant is 0242 and its six digits; anything else is refused', () => {
    expect(serviceProviderParticipant('PBE000001')).toBe('0242:000001');
    expect(() => serviceProviderParticipant('ABC')).toThrow(/not a Peppol seat id/);
  });

  it('when our SMP publishes a document type, then the Invoice Response and MLS go under their own process, everything else under billing', () => {
    expect(processOf(INVOICE_RESPONSE.documentType)).toEqual(INVOICE_RESPONSE.process);
    expect(processOf(MESSAGE_LEVEL_STATUS.documentType)).toEqual(MESSAGE_LEVEL_STATUS.process);
    expect(processOf(BIS_BILLING_INVOICE)).toEqual(BIS_BILLING_PROCESS);
  });
});

describe('ops network respond arguments', () => {
  it('when reasons and actions carry texts, then each is split at the first colon; a note is kept', () => {
    expect(responseOf({ code: 'RE', reasons: ['REF:wrong: order'], actions: ['nin'], note: 'see you' })).toEqual({
      code: 'RE',
      reasons: [{ code: 'REF', text: 'wrong: order' }],
      actions: [{ code: 'NIN', text: null }],
      note: 'see you',
    });
  });

  it('when the code, a reason or a rule is wrong, then it says why', () => {
    const none = { reasons: [], actions: [] };
    expect(() => responseOf({ ...none, code: 'XX' })).toThrow(/response code XX/);
    expect(() => responseOf({ ...none, code: 'AB', reasons: ['ZZZ'] })).toThrow(/status reason ZZZ/);
    expect(() => responseOf({ ...none, code: 'RE' })).toThrow(/PEPPOL-T111-R001/);
  });
});
