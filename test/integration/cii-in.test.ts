import { randomBytes } from 'node:crypto';

import { writeCii } from '../../domain/cii/write';
import type { TermDocument } from '../../domain/terms/document';
import { readUbl } from '../../domain/ubl/received-reader';
import { belgianSeller, validFixtures } from '../fixtures/documents';
import { callAs } from '../support/accounts';
import { LIVE, liveSender, sendingAccount, waitForStatus } from '../support/documents';
import { EVERY_TERM } from '../support/every-term';
import { callApi } from '../support/http';
import { ciiTotalsWritten } from '../support/official-examples';
import { ops } from '../support/ops';
import { validateUbl } from '../support/peppol-validator';

/**
 * CII in and out (issue 41): a UN/CEFACT CII invoice the client made, posted
 * as XML, is judged by CEN's CII rules, then becomes a document as a JSON
 * one does and is sent as the UBL written from its terms, its amounts kept;
 * `GET /v1/documents/{id}/cii` gives it back as posted, and gives any other
 * document as CII the CII rules pass.
 */

const SELLER = '0208:0123456749'; // The peppol_id of the company sendingAccount() makes.
const SELLER_PARTY = 'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:SellerTradeParty';

type Sender = Awaited<ReturnType<typeof sendingAccount>>;

/** The every-term document as CII, sold by `seller` (the company's identity by default) to `buyerEmail`. */
function clientMadeCii(buyerEmail: string, seller: Partial<TermDocument['from']> = {}): string {
  const { name, tax_id: taxId, company_registration_id: registration } = belgianSeller;
  return writeCii({
    ...EVERY_TERM,
    from: {
      ...EVERY_TERM.from,
      name,
      trading_name: undefined,
      tax_id: taxId ?? undefined,
      company_registration_id: registration ?? undefined,
      peppol_id: SELLER,
      ...seller,
    },
    to: { ...EVERY_TERM.to, email: buyerEmail },
  });
}

const postXml = (sender: Sender, xml: string, options: { liveKey?: string; key?: string } = {}) =>
  callApi(`/v1/documents?company_id=${sender.companyId}`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${options.liveKey ?? sender.key}`,
      'Content-Type': 'application/xml',
      ...(options.key && { 'Idempotency-Key': options.key }),
      ...(options.liveKey && { Host: LIVE }),
    },
    body: xml,
  });

const recipient = () => `cii-buyer-${randomBytes(5).toString('hex')}@example.com`;
const documentsOf = async (sender: Sender) =>
  (await callAs(sender.key, `/v1/documents?company_id=${sender.companyId}`)).body.data as unknown[];

describe('CII documents the client made', () => {
  it('when a CII invoice is posted as XML, then it is delivered as UBL stating its amounts, /cii gives it back byte for byte, and its key answers the same document', async () => {
    const sender = await sendingAccount();
    const xml = clientMadeCii(recipient());
    const posted = await postXml(sender, xml, { key: 'cii-1' });
    expect(posted.status).toBe(202);
    const { id } = posted.body;
    const delivered = await waitForStatus(sender.key, id, sender.companyId, ['delivered', 'failed']);
    expect(delivered).toMatchObject({
      status: 'delivered',
      type: 'invoice',
      number: EVERY_TERM.number,
      totals: { payable: '150.05', tax: '19.95', prepaid: '14.95', payable_rounding: '0.05' },
    });

    const cii = await callAs(sender.key, `/v1/documents/${id}/cii`);
    expect([cii.status, cii.headers.get('content-type')]).toEqual([200, expect.stringContaining('application/xml')]);
    expect(cii.text).toBe(xml);
    const ubl = readUbl((await callAs(sender.key, `/v1/documents/${id}/ubl`)).text);
    if ('unsupported' in ubl) throw new Error(ubl.unsupported);
    expect(ubl.stated_totals).toMatchObject({
      payable: '150.05',
      tax_exclusive: '145.00',
      tax: '19.95',
      prepaid: '14.95',
      payable_rounding: '0.05',
    });
    expect(ubl.document.lines.map((line) => line.tax_category)).toEqual(['S', 'AE']);

    const history = await callAs(sender.key, `/v1/documents/${id}/history`);
    expect(history.body.map((entry: { step: string }) => entry.step)).toEqual([
      'created',
      'validated',
      'queued',
      'sending',
      'delivered',
    ]);
    const again = await postXml(sender, xml, { key: 'cii-1' });
    expect([again.status, again.body.id]).toEqual([200, id]);
    expect(await documentsOf(sender)).toHaveLength(1);
  });

  it("when the CII's seller is not the company, then 422 seller_mismatch names the CII path, and nothing is stored", async () => {
    const sender = await sendingAccount();
    const refused = await postXml(sender, clientMadeCii(recipient(), { peppol_id: '0208:0987654394' }));
    expect([refused.status, refused.body.error.code, refused.body.error.param]).toEqual([
      422,
      'seller_mismatch',
      `${SELLER_PARTY}/ram:URIUniversalCommunication/ram:URIID`,
    ]);
    expect(await documentsOf(sender)).toEqual([]);
  });

  it('when the CII rules refuse it, then 422 names their rule at its CII XPath; when only the Peppol rules refuse the UBL it is sent as, then 422 says sent_as ubl; nothing is stored', async () => {
    const sender = await sendingAccount();
    const xml = clientMadeCii(recipient());
    const wrongTotal = await postXml(
      sender,
      xml.replace(
        '<ram:DuePayableAmount>150.05</ram:DuePayableAmount>',
        '<ram:DuePayableAmount>1.00</ram:DuePayableAmount>',
      ),
    );
    expect([wrongTotal.status, wrongTotal.body.error.code]).toEqual([422, 'document_invalid']);
    expect(wrongTotal.body.error.details.rule_set).toMatch(/^eu\.cen\.en16931:cii:/);
    expect(wrongTotal.body.error.details.violations).toContainEqual(expect.objectContaining({ rule: 'BR-CO-16' }));

    // EN 16931 lets a buyer go without an electronic address; Peppol does not (PEPPOL-EN16931-R010).
    const noBuyerAddress = await postXml(
      sender,
      xml.replace(
        /(<ram:BuyerTradeParty>[\s\S]*?)<ram:URIUniversalCommunication>[\s\S]*?<\/ram:URIUniversalCommunication>/,
        '$1',
      ),
    );
    expect([noBuyerAddress.status, noBuyerAddress.body.error.code, noBuyerAddress.body.error.details.sent_as]).toEqual([
      422,
      'document_invalid',
      'ubl',
    ]);
    expect(noBuyerAddress.body.error.details.violations).toContainEqual(
      expect.objectContaining({ rule: 'PEPPOL-EN16931-R010' }),
    );
    expect(await documentsOf(sender)).toEqual([]);
  });

  it('when a live CII states another legal name than the verified one, then 422 names it at its CII path; with the verified identity it is accepted and charged', async () => {
    const sender = await liveSender();
    await ops('credits', 'add', sender.workspaceId, '1.00');
    const impersonating = await postXml(sender, clientMadeCii(recipient(), { name: 'Someone Else NV' }), {
      liveKey: sender.liveKey,
    });
    expect([impersonating.status, impersonating.body.error.code]).toEqual([422, 'document_invalid']);
    expect(impersonating.body.error.details.violations).toEqual([
      expect.objectContaining({ path: `${SELLER_PARTY}/ram:Name` }),
    ]);
    const accepted = await postXml(sender, clientMadeCii(recipient()), { liveKey: sender.liveKey });
    expect(accepted.status).toBe(202);
    expect((await callAs(sender.key, `/v1/workspaces/${sender.workspaceId}`)).body.credit_balance).toBe('0.90');
  });
});

describe('any document as CII', () => {
  it('when a JSON document is asked for as CII, then it is CII the CII rules pass, stating the totals the document has', async () => {
    const sender = await sendingAccount();
    const fixture = validFixtures.find((candidate) => candidate.name.startsWith('several S rates'))!;
    const posted = await callAs(sender.key, '/v1/documents', {
      method: 'POST',
      body: { ...fixture.body, company_id: sender.companyId },
    });
    expect(posted.status).toBe(202);
    const cii = await callAs(sender.key, `/v1/documents/${posted.body.id}/cii`);
    expect(cii.status).toBe(200);
    const [result] = await validateUbl([{ name: 'JSON document as CII', xml: cii.text }]);
    expect(result?.fatal).toEqual([]);
    const document = (await callAs(sender.key, `/v1/documents/${posted.body.id}?company_id=${sender.companyId}`)).body;
    expect(ciiTotalsWritten(cii.text)).toMatchObject({
      payable: document.totals.payable,
      tax: document.totals.tax,
      tax_exclusive: document.totals.tax_exclusive,
    });
  });

  it('when another company’s document is asked for, then it is not found', async () => {
    const [owner, stranger] = await Promise.all([sendingAccount(), sendingAccount()]);
    const posted = await callAs(owner.key, '/v1/documents', {
      method: 'POST',
      body: { ...validFixtures[0]!.body, company_id: owner.companyId },
    });
    const asked = await callAs(stranger.key, `/v1/documents/${posted.body.id}/cii`);
    expect(asked.status).toBe(404);
  });
});
