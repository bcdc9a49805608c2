import { writeCii } from '../../domain/cii/write';
import { envelopedPayload } from '../../domain/peppol/envelope';
import { fullIdentifier } from '../../domain/peppol/smp';
import { BIS_BILLING_CII } from '../../domain/peppol/capabilities';
import { callAs, fakeClientIp } from '../support/accounts';
import { LIVE } from '../support/documents';
import { EVERY_TERM } from '../support/every-term';
import { callApi } from '../support/http';
import { liveReceiver, sendToUs } from '../support/receiving';
import { until } from '../support/until';

/**
 * CII on the Peppol network (issue 41): a live company that asks for it
 * (`receive_cii`) has our SMP publish Peppol BIS Billing's CII document type
 * beside the UBL ones, and a CII invoice a foreign access point sends it by
 * AS4 is filed as a UBL one is, judged by CEN's CII rules; before it asked,
 * the same message is refused as not serviced.
 */

const CII_TYPE = fullIdentifier(BIS_BILLING_CII);

it('when a live company asks to receive CII, then our SMP publishes the CII type and a CII invoice sent by AS4 lands in its inbox; before, it is refused as not serviced', async () => {
  const receiver = await liveReceiver();
  const cii = writeCii({
    ...EVERY_TERM,
    from: { ...EVERY_TERM.from, peppol_id: '0208:0123456749' },
    to: { ...EVERY_TERM.to, peppol_id: receiver.peppolId },
  });
  await expect(sendToUs(cii, receiver.peppolId, `cii-before-${Date.now()}@cii-receiving`)).rejects.toThrow(
    /PEPPOL:NOT_SERVICED/,
  );

  const patched = await callAs(receiver.key, `/v1/companies/${receiver.companyId}`, {
    method: 'PATCH',
    body: { receive_cii: true },
  });
  expect(patched.status).toBe(200);
  expect(patched.body).toMatchObject({
    receive_cii: true,
    receiving: { status: 'registered', document_types: expect.arrayContaining([CII_TYPE]) },
  });
  const lookup = await callApi(`/v1/lookup/${receiver.peppolId}`, { headers: { 'X-Forwarded-For': fakeClientIp() } });
  expect(
    lookup.body.smp.document_types.map((type: { scheme: string; value: string }) => `${type.scheme}::${type.value}`),
  ).toContain(CII_TYPE);

  await sendToUs(cii, receiver.peppolId, `cii-after-${Date.now()}@cii-receiving`);
  const listed = await until(
    'the inbox',
    () => callAs(receiver.liveKey, `/v1/inbox?company_id=${receiver.companyId}`, { host: LIVE }),
    (response) => response.body.data?.length === 1,
  );
  const id: string = listed.body.data[0].id;
  const document = await callAs(receiver.liveKey, `/v1/documents/${id}?company_id=${receiver.companyId}`, {
    host: LIVE,
  });
  expect(document.body).toMatchObject({
    environment: 'live',
    number: EVERY_TERM.number,
    rule_set: expect.stringMatching(/^eu\.cen\.en16931:cii:/),
    totals: { payable: '150.05' },
    received: { document_type_id: CII_TYPE, validation: { valid: true, errors: [] } },
  });
  // As it came: the payload of its envelope (which carries no XML declaration of its own).
  expect((await callAs(receiver.liveKey, `/v1/documents/${id}/cii`, { host: LIVE })).text).toBe(
    envelopedPayload(cii).trim(),
  );
});
