import { SEARCH_ATTRIBUTES, sendWorkflowId } from '../../workflows/shared';
import { australianSeller, pintInvoice, validFixtures } from '../fixtures/documents';
import { callAs } from '../support/accounts';
import { LIVE, liveHistory, liveSender, postLive, waitForStatus } from '../support/documents';
import { ops } from '../support/ops';
import { standInArrivals } from '../support/receiving';
import { sharedTemporalClient } from '../support/temporal';
import { sharedStack } from '../support/test-stack';

/**
 * Live documents on the local Peppol network: looked up by SML and SMP, sent
 * by our phase4 access point with the Peppol AS4 profile, received by the
 * stand-in receiving access point, which keeps every Standard Business
 * Document that arrived (GET /inbox).
 */

const fixture = (name: string) => validFixtures.find((candidate) => candidate.name === name)!.body;
const invoice = fixture('standard rate S, one line');
const creditNote = fixture('credit note with invoice reference and due date');
/** A buyer registered on the local network for invoices only. */
const invoiceOnlyBuyer = fixture('reverse charge AE to a Dutch buyer (EAS 0106)').to;
/** A buyer registered on the local network for BIS Billing in CII only (participants.json). */
const ciiOnlyBuyer = {
  ...(invoice.to as Record<string, unknown>),
  name: 'CII Buyer NV',
  peppol_id: '0208:0841425906',
  tax_id: 'BE0841425906',
  company_registration_id: '0841425906',
};

const receiver = () => sharedStack().peppol.receivingAccessPoint;

/** The business document inside an SBD: everything between the header and the closing tag, as received. */
function payloadOf(sbd: string): string {
  const header = '</StandardBusinessDocumentHeader>';
  return sbd.slice(sbd.indexOf(header) + header.length, sbd.lastIndexOf('</StandardBusinessDocument>'));
}

const withoutDeclaration = (ubl: string) => ubl.replace(/^<\?xml[^?]*\?>\n?/, '');

async function fundedSender(seller?: typeof australianSeller) {
  const sender = await liveSender(undefined, seller);
  expect((await ops('credits', 'add', sender.workspaceId, '5.00')).code).toBe(0);
  return sender;
}

const temporal = sharedTemporalClient();

describe('live delivery on the Peppol network', () => {
  it.each([
    ['invoice', invoice, 'Invoice-2::Invoice'],
    ['credit note', creditNote, 'CreditNote-2::CreditNote'],
  ])(
    'when a live %s is sent to a registered participant, then it is delivered by AS4 and the SBD that arrived carries the stored UBL byte for byte',
    async (_kind, body, documentType) => {
      const sender = await fundedSender();
      const posted = await postLive(sender.liveKey, {
        ...body,
        company_id: sender.companyId,
        number: `LIVE-${documentType.slice(0, 3)}-1`,
      });
      expect(posted.status).toBe(202);
      const document = await waitForStatus(
        sender.liveKey,
        posted.body.id,
        sender.companyId,
        ['delivered', 'failed'],
        60_000,
        { host: LIVE },
      );
      expect(document).toMatchObject({
        status: 'delivered',
        error_message: null,
        message_id: `${posted.body.id}@einvoice`,
      });

      const steps = await liveHistory(sender.liveKey, posted.body.id);
      expect(steps.find((step) => step.step === 'sending')?.message).toBe('Sending on the Peppol network (AS4)');
      // The delivered step, not the last one: the stand-in's MLS and Invoice Response may follow it within a second.
      expect(steps.find((step) => step.step === 'delivered')?.message).toMatch(
        new RegExp(
          `^Delivered on the Peppol network by AS4; message id ${posted.body.id}@einvoice to 0208:0987654394 \\(access point PBE000002\\); AS4 receipt \\S+$`,
        ),
      );

      const [arrival] = await standInArrivals(`${posted.body.id}@einvoice`);
      expect(arrival).toMatchObject({
        senderId: expect.stringContaining('0208:0123456749'),
        receiverId: expect.stringContaining('0208:0987654394'),
      });
      expect(arrival!.documentTypeId).toContain(documentType);
      const sbd = await (await fetch(`${receiver()}/inbox/${encodeURIComponent(arrival!.messageId)}.xml`)).text();
      const ubl = (await callAs(sender.liveKey, `/v1/documents/${posted.body.id}/ubl`, { host: LIVE })).text;
      expect(payloadOf(sbd)).toBe(withoutDeclaration(ubl));
      expect(sbd).toContain('<Scope><Type>COUNTRY_C1</Type><InstanceIdentifier>BE</InstanceIdentifier></Scope>');

      // What an operator sees in the Web UI: searchable as a live send, summary and last step.
      const handle = temporal().workflow.getHandle(sendWorkflowId(posted.body.id));
      const description = await handle.describe();
      expect(description.typedSearchAttributes.get(SEARCH_ATTRIBUTES.environment)).toBe('live');
      expect(description.typedSearchAttributes.get(SEARCH_ATTRIBUTES.documentStatus)).toBe('delivered');
      expect(await description.staticSummary()).toContain('(live)');
      const metadata = await handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata');
      expect(metadata.currentDetails).toMatch(/^Delivered on the Peppol network by AS4; message id /);
    },
  );

  it('when the receiver takes BIS Billing in CII only, then the document is delivered as the CII written from its UBL, with its amounts, and its history says so', async () => {
    const sender = await fundedSender();
    const posted = await postLive(sender.liveKey, {
      ...invoice,
      to: ciiOnlyBuyer,
      company_id: sender.companyId,
      number: 'LIVE-CII-1',
    });
    expect(posted.status).toBe(202);
    const document = await waitForStatus(
      sender.liveKey,
      posted.body.id,
      sender.companyId,
      ['delivered', 'failed'],
      60_000,
      { host: LIVE },
    );
    expect(document).toMatchObject({ status: 'delivered', error_message: null });
    expect(
      (await liveHistory(sender.liveKey, posted.body.id)).find((step) => step.step === 'delivered')?.message,
    ).toContain('to 0208:0841425906 (access point PBE000002) as CII, the syntax it takes');

    const [arrival] = await standInArrivals(`${posted.body.id}@einvoice`);
    expect(arrival!.documentTypeId).toContain('CrossIndustryInvoice:100::CrossIndustryInvoice##');
    const sbd = await (await fetch(`${receiver()}/inbox/${encodeURIComponent(arrival!.messageId)}.xml`)).text();
    const cii = (await callAs(sender.liveKey, `/v1/documents/${posted.body.id}/cii`, { host: LIVE })).text;
    expect(payloadOf(sbd)).toBe(withoutDeclaration(cii));
    expect(cii).toContain(`<ram:DuePayableAmount>${document.totals.payable}</ram:DuePayableAmount>`);
  });

  it('when an Australian company sends a PINT A-NZ invoice, then the PINT rules pass it and it goes as the PINT A-NZ document type to a receiver that takes only that', async () => {
    const sender = await fundedSender(australianSeller);
    const posted = await postLive(sender.liveKey, {
      ...pintInvoice,
      company_id: sender.companyId,
      number: 'LIVE-PINT-1',
    });
    expect(posted.status).toBe(202);
    const document = await waitForStatus(
      sender.liveKey,
      posted.body.id,
      sender.companyId,
      ['delivered', 'failed'],
      60_000,
      { host: LIVE },
    );
    expect(document).toMatchObject({ status: 'delivered', error_message: null });
    const steps = await liveHistory(sender.liveKey, posted.body.id);
    expect(steps.find((step) => step.step === 'delivered')?.message).toContain(
      'to 0151:53004085616 (access point PBE000002); AS4 receipt',
    );

    const [arrival] = await standInArrivals(`${posted.body.id}@einvoice`);
    expect(arrival!.documentTypeId).toContain('Invoice-2::Invoice##urn:peppol:pint:billing-1@aunz-1::2.1');
    const sbd = await (await fetch(`${receiver()}/inbox/${encodeURIComponent(arrival!.messageId)}.xml`)).text();
    expect(sbd).toContain(
      '<Scope><Type>PROCESSID</Type><InstanceIdentifier>urn:peppol:bis:billing</InstanceIdentifier>',
    );
    expect(payloadOf(sbd)).toBe(
      withoutDeclaration((await callAs(sender.liveKey, `/v1/documents/${posted.body.id}/ubl`, { host: LIVE })).text),
    );
  });

  it('when the receiver does not take the document type, then the document fails at once with that reason and its credits come back', async () => {
    const sender = await fundedSender();
    const posted = await postLive(sender.liveKey, {
      ...creditNote,
      to: invoiceOnlyBuyer,
      company_id: sender.companyId,
      number: 'LIVE-NO-CN',
    });
    expect(posted.status).toBe(202);
    const document = await waitForStatus(
      sender.liveKey,
      posted.body.id,
      sender.companyId,
      ['delivered', 'failed'],
      60_000,
      { host: LIVE },
    );
    expect(document.status).toBe('failed');
    expect(document.error_message).toBe(
      'The receiver 0106:12345678 cannot receive BIS Billing 3.0 credit notes on Peppol: its SMP does not list the document type.',
    );
    expect((await liveHistory(sender.liveKey, posted.body.id)).filter((step) => step.step === 'retry')).toEqual([]);
    expect((await callAs(sender.key, `/v1/workspaces/${sender.workspaceId}`)).body.credit_balance).toBe('5.00');
  });

  it('when the receiving access point refuses the message with a final AS4 error, then the document fails at once with that error and nothing arrives', async () => {
    const sender = await fundedSender();
    // Registered for invoices, but its access point answers PEPPOL:NOT_SERVICED (participants.json: refusedByAccessPoint).
    const refusing = { ...(invoice.to as Record<string, unknown>), peppol_id: '0208:0404616494' };
    const posted = await postLive(sender.liveKey, {
      ...invoice,
      to: refusing,
      company_id: sender.companyId,
      number: 'LIVE-REFUSED',
    });
    const document = await waitForStatus(
      sender.liveKey,
      posted.body.id,
      sender.companyId,
      ['delivered', 'failed'],
      60_000,
      { host: LIVE },
    );
    expect(document.status).toBe('failed');
    expect(document.error_message).toMatch(
      /^The receiving access point refused the document: .*EBMS:0004.*PEPPOL:NOT_SERVICED/,
    );
    expect((await liveHistory(sender.liveKey, posted.body.id)).filter((step) => step.step === 'retry')).toEqual([]);
    expect(await standInArrivals(`${posted.body.id}@einvoice`)).toEqual([]);
  });

  it('when the receiver is not on the network, then the document fails saying which step did not know it', async () => {
    const sender = await fundedSender();
    const unregistered = { ...(invoice.to as Record<string, unknown>), peppol_id: '0208:0202239951' };
    const posted = await postLive(sender.liveKey, {
      ...invoice,
      to: unregistered,
      company_id: sender.companyId,
      number: 'LIVE-NOBODY',
    });
    const document = await waitForStatus(
      sender.liveKey,
      posted.body.id,
      sender.companyId,
      ['delivered', 'failed'],
      60_000,
      { host: LIVE },
    );
    expect(document.status).toBe('failed');
    expect(document.error_message).toMatch(
      /^The receiver 0208:0202239951 is not on the Peppol network: the SML has no Meta:SMP NAPTR record at \S+\.$/,
    );
  });
});
