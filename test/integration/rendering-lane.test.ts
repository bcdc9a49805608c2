import { gzipSync } from 'node:zlib';

import { DOCUMENT_LIMITS } from '../../domain/documents/input';
import type { Store } from '../../store';
import { validFixtures } from '../fixtures/documents';
import { callAs, fakeClientIp, withStore } from '../support/accounts';
import { sendingAccount } from '../support/documents';
import { callApi } from '../support/http';
import { clientMadeUbl } from '../support/official-examples';
import { validatorLanes, validatorWarm } from '../support/peppol-validator';
import { until } from '../support/until';

/**
 * Renderings asked for run in a lane of their own (the validator's `view`), at most one at a time per
 * key, and are kept: a 1,000-line document's PDF (the costliest rendering a document sent here can
 * ask for) holds nothing another tenant's UBL in, document validation or public validation needs.
 */

const SELLER = '0208:0123456749'; // The peppol_id of the company sendingAccount() makes.

/** As many lines as a document may have, each with a note, an allowance and a charge. */
const thousandLines = (companyId: string) => ({
  ...validFixtures[0]!.body,
  company_id: companyId,
  lines: Array.from({ length: DOCUMENT_LIMITS.lines }, (_, index) => ({
    description: `Item ${index}`,
    note: 'Delivered on site',
    quantity: 1,
    unit_price: '1.00',
    tax_rate: 21,
    allowances: [{ amount: '0.01', reason: 'Discount' }],
    charges: [{ amount: '0.01', reason: 'Handling' }],
  })),
});

describe('renderings in a lane of their own', () => {
  it('when a 1,000-line document\u2019s PDF is being made, then another tenant\u2019s UBL in, document validation and public validation answer meanwhile, a second rendering by the same key is 429; the same rendering asked again is the kept one', async () => {
    const renderer = await sendingAccount();
    const posted = await callAs(renderer.key, '/v1/documents', {
      method: 'POST',
      body: thousandLines(renderer.companyId),
    });
    expect(posted.status).toBe(202);
    const pdf = callAs(renderer.key, `/v1/documents/${posted.body.id}/pdf`);
    await until('the rendering to run', validatorLanes, (lanes) => lanes.view.running === 1, 30_000, 50);

    // One rendering at a time per key: another one (not kept yet) waits for it.
    const second = await callAs(renderer.key, `/v1/documents/${posted.body.id}/html`);
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBe('5');
    expect(second.body.error).toMatchObject({ code: 'rendering_in_progress', type: 'rate_limit_error' });

    // Another tenant, meanwhile: nothing waits for the rendering, nothing is refused for it.
    const other = await sendingAccount();
    const [ublIn, validated, publicly] = await Promise.all([
      callApi(`/v1/documents?company_id=${other.companyId}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${other.key}`, 'Content-Type': 'application/xml' },
        body: clientMadeUbl('peppol-bis/base-example.xml', SELLER, 'lane-buyer@example.com'),
      }),
      callAs(other.key, '/v1/documents/validate', {
        method: 'POST',
        body: { ...validFixtures[0]!.body, company_id: other.companyId },
      }),
      callApi('/v1/ubl/validate', {
        method: 'POST',
        headers: { 'Content-Type': 'application/xml', 'X-Forwarded-For': fakeClientIp() },
        body: clientMadeUbl('peppol-bis/base-example.xml', SELLER, 'lane-buyer@example.com'),
      }),
    ]);
    expect([ublIn.status, validated.status, publicly.status]).toEqual([202, 200, 200]);
    expect(validated.body.valid).toBe(true);
    // Still rendering: they were answered beside it, not after it.
    expect((await validatorLanes()).view.running).toBe(1);

    // On two cores as busy as a CI run's, the PDF can pass its 60 s limit: either way the lane's permit and the key's claim come back.
    const made = await pdf;
    expect([200, 503]).toContain(made.status);
    // A rendering stopped at its limit gives its permit back once its worker process is gone, which may follow the answer by a moment.
    await until('the view lane free again', validatorLanes, (lanes) => lanes.view.running === 0, 30_000, 50);
    // A worker stopped at the limit is replaced, and its successor warms up: on busy cores that takes long enough for
    // the next rendering to pass its own limit waiting, so the kept rendering below is asked for once it is warm.
    await validatorWarm();

    // The same key renders again (its claim ended with the rendering); asked again (no If-None-Match), the kept bytes:
    // the kept row is overwritten here with bytes no renderer makes, so only a served kept row answers them (the view
    // lane's counters are shared with the rest of the suite's renderings, so they cannot tell).
    const small = await callAs(renderer.key, '/v1/documents', {
      method: 'POST',
      body: { ...validFixtures[0]!.body, company_id: renderer.companyId },
    });
    expect(small.status).toBe(202);
    const first = await callAs(renderer.key, `/v1/documents/${small.body.id}/pdf`);
    expect(first.status).toBe(200);
    const keptOf = (store: Store) =>
      store.renderings.find({ _id: { $regex: `^${small.body.id}:` } }, { _id: 1 }).lean();
    const [kept] = await withStore(keptOf);
    expect(kept).toBeDefined();
    const marker = Buffer.from('%PDF-kept-marker');
    await withStore((store) => store.renderings.updateOne({ _id: kept!._id }, { $set: { gzipped: gzipSync(marker) } }));
    const again = await callAs(renderer.key, `/v1/documents/${small.body.id}/pdf`);
    expect(again.status).toBe(200);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(again.bytes.equals(marker)).toBe(true);
    // Another language is another rendering, kept beside the first.
    expect((await callAs(renderer.key, `/v1/documents/${small.body.id}/pdf?lang=de`)).status).toBe(200);
    expect(await withStore(keptOf)).toHaveLength(2);
  }, 480_000);
});
