import { followUpRefusal, contentProblems } from '../../domain/peppol/invoice-response';
import {
  readApplicationResponse,
  writeInvoiceResponse,
  writeMessageLevelStatus,
} from '../../domain/ubl/application-response';

describe('Invoice Response (T111)', () => {
  const written = writeInvoiceResponse({
    id: 'resp-1',
    issueDate: '2026-11-25',
    sender: { participantId: '0208:0987654394', name: 'Buyer & Co NV' },
    receiver: { participantId: '0208:0123456749', name: 'Seller SRL' },
    content: {
      code: 'RE',
      reasons: [{ code: 'REF', text: 'Order number unknown' }],
      actions: [{ code: 'NIN', text: null }],
      note: 'See our order',
    },
    reference: { id: 'INV-42', issueDate: '2026-11-20', typeCode: '380' },
  });

  it('writes what it reads back', () => {
    expect(written).toContain('<cbc:StatusReasonCode listID="OPStatusReason">REF</cbc:StatusReasonCode>');
    expect(readApplicationResponse(written)).toEqual({
      kind: 'invoice_response',
      id: 'resp-1',
      issueDate: '2026-11-25',
      sender: { participantId: '0208:0987654394', name: 'Buyer & Co NV' },
      receiver: { participantId: '0208:0123456749', name: 'Seller SRL' },
      code: 'RE',
      reasons: [{ code: 'REF', text: 'Order number unknown' }],
      actions: [{ code: 'NIN', text: null }],
      note: 'See our order',
      reference: { id: 'INV-42', issueDate: '2026-11-20', typeCode: '380' },
    });
  });

  it('refuses what the process rules forbid, naming the rule', () => {
    expect(followUpRefusal([], 'RE')).toBeUndefined();
    expect(followUpRefusal(['AB', 'IP'], 'AP')).toBeUndefined();
    expect(followUpRefusal(['AB', 'RE'], 'AP')?.rule).toBe('OP-BR111-R004');
    expect(followUpRefusal(['PD'], 'PD')?.rule).toBe('OP-BR111-R004');
    expect(followUpRefusal(['AP'], 'IP')?.rule).toBe('OP-BR111-R005');
    expect(followUpRefusal(['AP'], 'PD')).toBeUndefined();
    expect(followUpRefusal(['CA'], 'AB')?.rule).toBe('OP-BR111-R012');
  });

  it('names the field of a missing clarification', () => {
    expect(contentProblems({ code: 'RE', reasons: [], actions: [], note: null })).toEqual([
      expect.objectContaining({ field: 'reasons', rule: 'PEPPOL-T111-R001' }),
    ]);
    expect(
      contentProblems({ code: 'AP', reasons: [{ code: 'PPD', text: null }], actions: [], note: null }).map(
        (p) => p.rule,
      ),
    ).toEqual(['PEPPOL-T111-R005', 'PEPPOL-T111-R004']);
  });
});

describe('Message Level Status', () => {
  it('writes a negative status with its lines and reads it back', () => {
    const written = writeMessageLevelStatus({
      id: 'mls-1',
      issuedAt: new Date('2026-11-25T10:00:00.000Z'),
      senderSpid: '000002',
      receiverSpid: '000001',
      code: 'RE',
      description: 'Rejected due to validation errors',
      referencedInstanceId: '90f14eff-3705-4869-ad3c-caae270a234e',
      lines: [{ reason: 'BV', description: '[BR-CO-15] totals', lineId: 'NA' }],
    });
    expect(written).toContain('<cbc:IssueTime>10:00:00Z</cbc:IssueTime>');
    expect(readApplicationResponse(written)).toEqual({
      kind: 'mls',
      id: 'mls-1',
      senderSpid: '000002',
      receiverSpid: '000001',
      code: 'RE',
      description: 'Rejected due to validation errors',
      referencedInstanceId: '90f14eff-3705-4869-ad3c-caae270a234e',
      lines: [{ reason: 'BV', description: '[BR-CO-15] totals', lineId: 'NA' }],
    });
  });

  it('says why a document is neither', () => {
    expect(
      readApplicationResponse('<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>'),
    ).toEqual({ unreadable: expect.stringContaining('not a UBL ApplicationResponse') });
  });
});
