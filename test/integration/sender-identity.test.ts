import { randomBytes } from 'node:crypto';

import { belgianSeller, validFixtures } from '../fixtures/documents';
import { callAs } from '../support/accounts';
import { LIVE, liveSender, postLive } from '../support/documents';
import { callApi } from '../support/http';
import { clientMadeUbl, withSellerIdentity, type StatedSellerIdentity } from '../support/official-examples';
import { ops } from '../support/ops';
import { liveReceiver, uniqueBelgianPeppolId } from '../support/receiving';
import { until } from '../support/until';

/**
 * Hardening IV: a live document speaks only for the company as its review verified it. The probe's three routes to
 * sending on Peppol as another business under our certificate: a JSON document's `from`, a posted UBL's seller, and
 * a Peppol id (or name) not verified yet. The sandbox keeps its freedom.
 */

const invoice = validFixtures.find((candidate) => candidate.name === 'standard rate S, one line')!.body;
const SELLER_PARTY = 'cac:AccountingSupplierParty/cac:Party';
const verified = belgianSeller as StatedSellerIdentity;

type Funded = Awaited<ReturnType<typeof liveSender>>;

async function fundedSender(): Promise<Funded> {
  const sender = await liveSender();
  expect((await ops('credits', 'add', sender.workspaceId, '5.00')).code).toBe(0);
  return sender;
}

const balance = async (sender: Funded) =>
  (await callAs(sender.key, `/v1/workspaces/${sender.workspaceId}`)).body.credit_balance as string;
const number = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;
const paths = (body: { error: { details: { violations: { path: string }[] } } }) =>
  body.error.details.violations.map((violation) => violation.path).sort();

const postUbl = (key: string, companyId: string, xml: string, host?: string) =>
  callApi(`/v1/documents?company_id=${companyId}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/xml', ...(host && { Host: host }) },
    body: xml,
  });

const exampleUbl = () =>
  clientMadeUbl(
    'peppol-bis/base-example.xml',
    belgianSeller.peppol_id!,
    `identity-${randomBytes(4).toString('hex')}@example.com`,
  );

describe('a live document speaks only for the verified company', () => {
  it("when a live JSON document's from names another business, then 422 names each field, nothing is charged; a different address is sent", async () => {
    const sender = await fundedSender();
    const impersonating = {
      ...invoice,
      company_id: sender.companyId,
      number: number('IMPERSONATE'),
      from: {
        name: 'Another Business NV',
        peppol_id: '0208:0987654394',
        tax_id: 'BE0987654394',
        company_registration_id: '0987654394',
      },
    };
    const refused = await postLive(sender.liveKey, impersonating);
    expect([refused.status, refused.body.error.code]).toEqual([422, 'document_invalid']);
    expect(paths(refused.body)).toEqual(['from.company_registration_id', 'from.name', 'from.peppol_id', 'from.tax_id']);
    expect(
      refused.body.error.details.violations.find((violation: { path: string }) => violation.path === 'from.name')
        .message,
    ).toContain(`legal name (BT-27) is "${verified.name}"`);
    expect(await balance(sender)).toBe('5.00');

    // The verified values (the name in capitals), and another address: the same business.
    const same = {
      name: verified.name.toUpperCase(),
      tax_id: verified.tax_id,
      address: { street: 'Another street 9', city: 'Ghent', postal_code: '9000', country: 'BE' },
    };
    const accepted = await postLive(sender.liveKey, {
      ...invoice,
      company_id: sender.companyId,
      number: number('SAME'),
      from: same,
    });
    expect(accepted.status).toBe(202);
  });

  it('when a live batch holds a JSON document and a UBL entry naming another seller, then each is refused on its own and the honest one is accepted', async () => {
    const sender = await fundedSender();
    const ubl = Buffer.from(exampleUbl()).toString('base64');
    const answered = await callAs(sender.liveKey, '/v1/documents/batch', {
      host: LIVE,
      method: 'POST',
      body: [
        {
          ...invoice,
          company_id: sender.companyId,
          number: number('BATCH-IMPERSONATE'),
          from: { tax_id: 'BE0987654394' },
        },
        { company_id: sender.companyId, ubl },
        { ...invoice, company_id: sender.companyId, number: number('BATCH-HONEST') },
      ],
    });
    expect(answered.status).toBe(202);
    const [json, posted, honest] = answered.body;
    expect(json.error).toMatchObject({ code: 'document_invalid', param: 'from.tax_id' });
    expect(posted.error.code).toBe('document_invalid');
    expect(paths(posted)).toEqual([
      `${SELLER_PARTY}/cac:PartyLegalEntity/cbc:CompanyID`,
      `${SELLER_PARTY}/cac:PartyLegalEntity/cbc:RegistrationName`,
      `${SELLER_PARTY}/cac:PartyTaxScheme/cbc:CompanyID`,
    ]);
    expect(honest).toMatchObject({ status: 'queued' });
    expect(await balance(sender)).toBe('4.90');
  });

  it("when a live UBL's seller has the company's EndpointID but another legal name, VAT id and registration id, then 422 names each at its XPath; stating the verified ones (a trading name of its own) is accepted", async () => {
    const sender = await fundedSender();
    const refused = await postUbl(sender.liveKey, sender.companyId, exampleUbl(), LIVE);
    expect([refused.status, refused.body.error.code]).toEqual([422, 'document_invalid']);
    expect(refused.body.error.details.violations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          path: `${SELLER_PARTY}/cac:PartyTaxScheme/cbc:CompanyID`,
          message: expect.stringContaining('not "GB1232434"'),
        }),
      ]),
    );
    expect(await balance(sender)).toBe('5.00');

    const honest = withSellerIdentity(exampleUbl(), verified);
    expect(honest).toContain('<cbc:Name>SupplierTradingName Ltd.</cbc:Name>');
    const accepted = await postUbl(sender.liveKey, sender.companyId, honest, LIVE);
    expect(accepted.status).toBe(202);
  });

  it('when a sandbox document names another seller, then it is accepted as before (the sandbox says the sender is unverified instead)', async () => {
    const sender = await liveSender();
    const accepted = await callAs(sender.key, '/v1/documents', {
      method: 'POST',
      body: {
        ...invoice,
        company_id: sender.companyId,
        number: number('SANDBOX'),
        from: { name: 'Another Business NV' },
      },
    });
    expect(accepted.status).toBe(202);
    expect((await postUbl(sender.key, sender.companyId, exampleUbl())).status).toBe(202);
  });
});

describe('only a verified identity sends', () => {
  const company = (key: string, companyId: string) => callAs(key, `/v1/companies/${companyId}`);

  it('when a live company switches to a Peppol id under review, then a live document is 409 sender_not_verified with the reason, and the operator sees the review', async () => {
    const receiver = await liveReceiver();
    const other = uniqueBelgianPeppolId();
    expect(
      (
        await callAs(receiver.key, `/v1/companies/${receiver.companyId}`, {
          method: 'PATCH',
          body: { peppol_id: other },
        })
      ).status,
    ).toBe(200);

    const refused = await postLive(receiver.liveKey, {
      ...invoice,
      company_id: receiver.companyId,
      number: number('UNVERIFIED'),
    });
    expect([refused.status, refused.body.error.code]).toEqual([409, 'sender_not_verified']);
    expect(refused.body.error.message).toContain(`cannot send on the live network as ${other}`);
    expect(refused.body.error.details).toMatchObject({
      company_id: receiver.companyId,
      peppol_id: other,
      identity_status: 'review',
      reason: expect.stringContaining(`${other} is not the company's verified`),
    });

    await until(
      'the review opened',
      () => company(receiver.key, receiver.companyId),
      (response) => response.body.participant_review?.status === 'pending',
      90_000,
    );
    const listed = await ops('participants');
    expect(listed.stdout).toContain(receiver.companyId);
    expect(listed.stdout).toContain(`peppol_id ${other}`);
  }, 150_000);

  it('when a live company is renamed, then it does not send until the operator approves the new name; then it sends under it', async () => {
    const receiver = await liveReceiver({ tax_id: 'BE0123456749' });
    await ops('credits', 'add', receiver.workspaceId, '1.00');
    expect(
      (
        await callAs(receiver.key, `/v1/companies/${receiver.companyId}`, {
          method: 'PATCH',
          body: { name: 'Renamed Holding SA' },
        })
      ).status,
    ).toBe(200);

    const refused = await postLive(receiver.liveKey, {
      ...invoice,
      company_id: receiver.companyId,
      number: number('RENAMED'),
    });
    expect([refused.status, refused.body.error.code]).toEqual([409, 'sender_not_verified']);
    expect(refused.body.error.details.reason).toBe('its legal name changed after verification');

    await until(
      'the rename reviewed',
      () => company(receiver.key, receiver.companyId),
      (response) => response.body.participant_review?.status === 'pending',
      90_000,
    );
    // The operator sees both names.
    const listed = (await ops('participants')).stdout;
    expect(listed).toMatch(/under review:\s+name Renamed Holding SA,/);
    expect(listed).toMatch(/verified:\s+name Acme BV,/);
    expect(await ops('participants', 'approve', receiver.companyId)).toMatchObject({ code: 0 });
    await until(
      'the review approved',
      () => company(receiver.key, receiver.companyId),
      (response) => response.body.participant_review?.status === 'approved',
      90_000,
    );
    const accepted = await postLive(receiver.liveKey, {
      ...invoice,
      company_id: receiver.companyId,
      number: number('RENAMED'),
    });
    expect(accepted.status).toBe(202);
  }, 150_000);
});
