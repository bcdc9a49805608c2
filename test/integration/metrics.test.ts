import { readFileSync } from 'node:fs';
import path from 'node:path';

import { convertDocument } from '../../domain/documents/convert';
import { documentInputSchema } from '../../domain/documents/input';
import { belgianBuyerCompany, belgianSeller, validFixtures } from '../fixtures/documents';
import { callAs, type TestAccount } from '../support/accounts';
import { sendingAccount, waitForStatus } from '../support/documents';
import { callApi } from '../support/http';
import { countOf, scrape, valueOf } from '../support/prometheus';
import { until } from '../support/until';
import { sharedStack } from '../support/test-stack';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * The API's and the worker's Prometheus metrics on the shared stack: each
 * endpoint parses as Prometheus text, none is on the public port, and the
 * counters move when a document is sent, received and answered. Other test
 * files run on the same stack at the same time, so a counter is asserted to
 * have grown by at least what this file did.
 */

const fixture = validFixtures.find((candidate) => candidate.name === 'standard rate S, one line')!.body;
const converted = convertDocument(documentInputSchema.parse(fixture), belgianSeller);
if (!converted.ok) throw new Error('the standard fixture is refused');

const metrics = () => sharedStack().metrics;
const both = async () => ({ api: await scrape(metrics().api), worker: await scrape(metrics().worker) });

/** An account with the example seller and, as a company of the same workspace, the fixture's buyer. */
async function sellerAndBuyer(): Promise<TestAccount & { companyId: string; buyerId: string }> {
  const account = await sendingAccount();
  const buyer = await callAs(account.key, '/v1/companies', { method: 'POST', body: belgianBuyerCompany });
  if (buyer.status !== 201) throw new Error(`buyer company: ${buyer.text}`);
  return { ...account, buyerId: buyer.body.id };
}

describe('metrics', () => {
  const hooks = new WebhookReceiver();
  beforeAll(() => hooks.start());
  afterAll(() => hooks.stop());

  it('the API, the worker and the worker\u2019s Temporal SDK each answer GET /metrics in Prometheus text on a port of their own, and the public API has no /metrics', async () => {
    const { api, worker } = await both();
    const temporal = await scrape(metrics().temporalWorker);
    for (const families of [api, worker]) {
      const ours = families.filter((family) => family.name.startsWith('einvoice_'));
      expect(ours.length).toBeGreaterThan(10);
      for (const family of ours)
        expect(`${family.name}: ${family.help.length > 0} ${family.type}`).toMatch(/: true (COUNTER|GAUGE|HISTOGRAM)$/);
    }
    expect(temporal.some((family) => family.name.startsWith('temporal_'))).toBe(true);
    const ports = [metrics().api, metrics().worker, metrics().temporalWorker, sharedStack().apiUrl].map(
      (url) => new URL(url).port,
    );
    expect(new Set(ports).size).toBe(4);
    expect((await callApi('/metrics')).status).toBe(404);
  });

  it('every Temporal SDK metric the Grafana dashboard uses is in the worker\u2019s SDK exposition (after a document has gone through)', async () => {
    const account = await sendingAccount();
    const posted = await callAs(account.key, '/v1/documents', {
      method: 'POST',
      body: { ...fixture, company_id: account.companyId },
    });
    await waitForStatus(account.key, posted.body.id, account.companyId, ['delivered']);
    const dashboard = readFileSync(path.resolve(__dirname, '../../deploy/grafana/einvoice-dashboard.json'), 'utf8');
    const used = new Set([...dashboard.matchAll(/\btemporal_[a-z0-9_]+/g)].map((match) => match[0]));
    expect(used.size).toBeGreaterThan(0);
    const exposed = new Set(
      (await scrape(metrics().temporalWorker)).flatMap((family) =>
        family.type === 'HISTOGRAM'
          ? ['_bucket', '_sum', '_count'].map((suffix) => `${family.name}${suffix}`)
          : [family.name],
      ),
    );
    expect([...used].filter((name) => !exposed.has(name))).toEqual([]);
  });

  it('when a sandbox document is sent and its webhook delivered, then the API counts the request by its route, and the worker the moves and the webhook\u2019s delivery and lag', async () => {
    const account = await sendingAccount();
    const webhook = await callAs(account.key, '/v1/webhooks', {
      method: 'POST',
      body: { url: hooks.url, events: ['document.delivered'] },
    });
    expect(webhook.status).toBe(201);
    const before = await both();

    const posted = await callAs(account.key, '/v1/documents', {
      method: 'POST',
      body: { ...fixture, company_id: account.companyId },
    });
    expect(posted.status).toBe(202);
    await waitForStatus(account.key, posted.body.id, account.companyId, ['delivered']);
    await until(
      'the webhook',
      () => Promise.resolve(hooks.received.filter((hook) => hook.raw.includes(posted.body.id)).length),
      (count) => count > 0,
    );
    const after = await until(
      'the webhook delivery counted',
      both,
      (now) =>
        valueOf(now.worker, 'einvoice_webhook_deliveries_total', { outcome: 'succeeded' }) >
        valueOf(before.worker, 'einvoice_webhook_deliveries_total', { outcome: 'succeeded' }),
    );

    const grew = (side: 'api' | 'worker', name: string, labels: Record<string, string>) =>
      valueOf(after[side], name, labels) - valueOf(before[side], name, labels);
    expect(
      grew('api', 'einvoice_http_requests_total', { route: '/v1/documents', method: 'POST', status: '202' }),
    ).toBeGreaterThanOrEqual(1);
    // Recorded by the workflow's first step, on the worker (Update-with-Start), as every later move is.
    for (const status of ['queued', 'sending', 'delivered'])
      expect(grew('worker', 'einvoice_documents_total', { direction: 'sent', status })).toBeGreaterThanOrEqual(1);
    expect(grew('worker', 'einvoice_webhook_attempts_total', { outcome: 'succeeded' })).toBeGreaterThanOrEqual(1);
    expect(countOf(after.worker, 'einvoice_webhook_delivery_lag_seconds')).toBeGreaterThan(
      countOf(before.worker, 'einvoice_webhook_delivery_lag_seconds'),
    );
  });

  it('when a document is received in the sandbox and answered with an Invoice Response, then the worker counts it received and the response sent', async () => {
    const account = await sellerAndBuyer();
    const before = await both();

    const posted = await callApi('/v1/sandbox/inbound', {
      method: 'POST',
      headers: { Authorization: `Bearer ${account.key}`, 'Content-Type': 'application/xml' },
      body: converted.ok ? converted.ubl : '',
    });
    expect(posted.status).toBe(202);
    const documentId: string = posted.body.id;
    await until(
      'the filed document',
      () => callAs(account.key, `/v1/documents/${documentId}?company_id=${account.buyerId}`),
      (response) => response.status === 200,
    );
    const filed = { direction: 'received', status: 'received' };
    await until(
      'the received document counted',
      () => scrape(metrics().worker),
      (now) =>
        valueOf(now, 'einvoice_documents_total', filed) > valueOf(before.worker, 'einvoice_documents_total', filed),
    );

    const answered = await callAs(account.key, `/v1/documents/${documentId}/responses?company_id=${account.buyerId}`, {
      method: 'POST',
      body: { code: 'AP' },
    });
    expect(answered.status).toBe(202);
    const sent = { kind: 'invoice_response', direction: 'sent', outcome: 'sent' };
    const after = await until(
      'the response counted',
      both,
      (now) =>
        valueOf(now.worker, 'einvoice_replies_total', sent) > valueOf(before.worker, 'einvoice_replies_total', sent),
    );
    expect(
      valueOf(after.api, 'einvoice_http_requests_total', {
        route: '/v1/sandbox/inbound',
        method: 'POST',
        status: '202',
      }),
    ).toBeGreaterThan(
      valueOf(before.api, 'einvoice_http_requests_total', {
        route: '/v1/sandbox/inbound',
        method: 'POST',
        status: '202',
      }),
    );
    expect(
      valueOf(after.api, 'einvoice_http_requests_total', {
        route: '/v1/documents/:id/responses',
        method: 'POST',
        status: '202',
      }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('the API reads what the database and the validator say at each scrape: documents in progress by status, stuck work by kind, and the validator\u2019s lanes', async () => {
    const api = await scrape(metrics().api);
    const labels = (name: string, label: string) =>
      (api.find((family) => family.name === name)?.metrics ?? []).map((sample) => sample.labels?.[label]).sort();
    expect(labels('einvoice_documents_in_progress', 'status')).toEqual(['queued', 'receiving', 'sending']);
    expect(labels('einvoice_documents_oldest_age_seconds', 'status')).toEqual(['queued', 'receiving', 'sending']);
    expect(labels('einvoice_stuck_work', 'kind')).toEqual(['document', 'invoice_response', 'mls', 'webhook_delivery']);
    const lanes = ['interactive', 'public', 'receive', 'render', 'send', 'view'];
    expect(labels('einvoice_validator_lane_permits', 'lane')).toEqual(lanes);
    for (const lane of lanes) expect(valueOf(api, 'einvoice_validator_lane_permits', { lane })).toBeGreaterThan(0);
    // The lanes' jobs by how they ended, each lane under all three outcomes.
    expect(labels('einvoice_validator_lane_jobs_total', 'lane')).toEqual(lanes.flatMap((lane) => [lane, lane, lane]));
    expect(labels('einvoice_validator_lane_jobs_total', 'outcome')).toEqual(
      lanes.flatMap(() => ['completed', 'lost', 'stopped']).sort(),
    );
  });
});
