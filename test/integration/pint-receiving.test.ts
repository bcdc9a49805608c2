import { convertDocument } from '../../domain/documents/convert';
import { documentInputSchema } from '../../domain/documents/input';
import { PINT_AUNZ_SERVICES } from '../../domain/peppol/capabilities';
import { fullIdentifier } from '../../domain/peppol/smp';
import { australianSeller, pintInvoice } from '../fixtures/documents';
import { callAs } from '../support/accounts';
import { LIVE } from '../support/documents';
import { liveReceiver, sendToUs } from '../support/receiving';
import { until } from '../support/until';

/**
 * PINT A-NZ on the Peppol network (issue 41): our SMP publishes the PINT A-NZ document types for a company in
 * Australia or New Zealand, where senders write them, and a PINT A-NZ invoice sent to it by AS4 is filed, judged
 * by the PINT A-NZ rules, with a JSON view that says `profile: "pint"`.
 */

/** An ABN of our own (its check digits hold), apart from the stand-in network's Australian buyer. */
const RECEIVER_ABN = '78004085610';
const PINT_TYPES = Object.values(PINT_AUNZ_SERVICES).map((service) => fullIdentifier(service.documentType));

it('when an Australian company is registered, then our SMP publishes PINT A-NZ beside BIS Billing, and a PINT A-NZ invoice sent by AS4 is filed, judged by the PINT A-NZ rules', async () => {
  const receiver = await liveReceiver({
    country: 'AU',
    peppol_id: `0151:${RECEIVER_ABN}`,
    company_registration_id: RECEIVER_ABN,
    tax_id: `AU${RECEIVER_ABN}`,
  });
  const company = await callAs(receiver.key, `/v1/companies/${receiver.companyId}`);
  expect(company.body.receiving.document_types).toEqual(expect.arrayContaining(PINT_TYPES));

  const to = {
    ...pintInvoice.to,
    peppol_id: receiver.peppolId,
    company_registration_id: RECEIVER_ABN,
    tax_id: `AU${RECEIVER_ABN}`,
  };
  const converted = convertDocument(
    documentInputSchema.parse({ ...pintInvoice, to, company_id: 'com_x' }),
    australianSeller,
  );
  if (!converted.ok) throw new Error(JSON.stringify(converted.violations));
  await sendToUs(converted.ubl, receiver.peppolId, `pint-${Date.now()}@pint-receiving`);

  const listed = await until(
    'the inbox',
    () => callAs(receiver.liveKey, `/v1/inbox?company_id=${receiver.companyId}`, { host: LIVE }),
    (response) => response.body.data?.length === 1,
  );
  const document = await callAs(
    receiver.liveKey,
    `/v1/documents/${listed.body.data[0].id}?company_id=${receiver.companyId}`,
    { host: LIVE },
  );
  expect(document.body).toMatchObject({
    number: pintInvoice.number,
    rule_set: expect.stringMatching(/^org\.peppol\.pint\.aunz:invoice:/),
    received: { document_type_id: PINT_TYPES[0], validation: { valid: true, errors: [] } },
  });
});
