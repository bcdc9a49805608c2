import { rm } from 'node:fs/promises';

import { Client, Connection } from '@temporalio/client';
import mongoose from 'mongoose';

import type { StackConfig } from '../../stack/config';
import { addCredits, operatorActor } from '../../services/operator/workspaces';
import type { ComponentName } from '../../stack/components';
import { startStack, type EmbeddedStack } from '../../stack/embedded-stack';
import { TASK_QUEUE } from '../../workflows/shared';
import { belgianSeller, validFixtures } from '../fixtures/documents';
import { callAs, withStore } from '../support/accounts';
import { LIVE, liveHistory, liveSender, postLive, waitForStatus } from '../support/documents';
import { callApi } from '../support/http';
import { standInArrivals } from '../support/receiving';
import { isolatedStackConfig } from '../support/test-stack';
import {
  documentsDeliveredOnceUnderKills,
  receiptedMessagesFiledOnceUnderKills,
  type Kill,
} from '../support/under-load';
import { until } from '../support/until';
import { isAlive } from '../../stack/process-alive';

async function withTemporal<T>(address: string, use: (client: Client) => Promise<T>): Promise<T> {
  const connection = await Connection.connect({ address });
  try {
    return await use(new Client({ connection }));
  } finally {
    await connection.close();
  }
}

/**
 * A stack of its own (not the shared one), because this test kills and
 * restarts its processes (the stand-in's receiving access point too, which
 * every live test of the shared stack sends to) and stops the whole stack.
 */
describe('the embedded stack lifecycle', () => {
  let config: StackConfig;
  let stack: EmbeddedStack | undefined;

  beforeAll(async () => {
    config = await isolatedStackConfig({
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_INITIAL_INTERVAL: '1s',
      // A receiving access point that does not answer costs an attempt this long, not the default 30 s.
      AS4_SEND_TIMEOUT: '3s',
      // The load run posts every 100 ms and then reads every document until delivered: far past a sandbox key's 60 a minute.
      RATE_LIMIT_SANDBOX: '6000',
    });
    stack = await startStack({ config });
    // A whole stack of its own, JVMs included, beside the suite's: minutes on two busy cores.
  }, 420_000);

  afterAll(async () => {
    await stack?.stop();
    await rm(config.DATA_DIR, { recursive: true, force: true });
  });

  it('when a second stack starts on the same data directory, then it fails at once with a clear message', async () => {
    await expect(startStack({ config })).rejects.toThrow(/DATA_DIR .* is in use by a running stack/);
  });

  it('when a second stack starts on ports in use, then it fails at once naming the variables', async () => {
    const other = await isolatedStackConfig({ PORT: String(config.PORT), FERRETDB_PORT: String(config.FERRETDB_PORT) });
    await expect(startStack({ config: other })).rejects.toThrow(/port already in use: FERRETDB_PORT=\d+, PORT=\d+/);
    await rm(other.DATA_DIR, { recursive: true, force: true });
  });

  it('when the worker is killed, then the supervisor starts it again and work queued meanwhile completes', async () => {
    const worker = stack!.process('worker')!;
    const restarted = stack!.restarted('worker');
    worker.signal('SIGKILL');
    await worker.exited;

    await withTemporal(stack!.urls.temporal, async (client) => {
      const handle = await client.workflow.start('housekeepingWorkflow', {
        taskQueue: TASK_QUEUE,
        workflowId: 'cleanup-while-worker-down',
        args: [{ chore: 'rate-window-cleanup' }],
      });
      await restarted;
      await expect(handle.result()).resolves.toEqual(expect.any(Number));
    });
    expect(worker.running).toBe(true);
  }, 240_000);

  it('when the API is killed, then the supervisor starts it again on the same data', async () => {
    const signup = await callApi('/v1/signup', {
      baseUrl: stack!.urls.api,
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'kept@example.com' }),
    });
    expect(signup.status).toBe(201);
    const api = stack!.process('api')!;
    const restarted = stack!.restarted('api');
    api.signal('SIGKILL');
    await api.exited;
    await expect(callApi('/v1/health', { baseUrl: stack!.urls.api })).rejects.toThrow();

    await restarted;
    expect((await callApi('/v1/health', { baseUrl: stack!.urls.api })).body.checks).toEqual({
      db: 'ok',
      temporal: 'ok',
      validator: 'ok',
    });
    const account = await callApi('/v1/account', {
      baseUrl: stack!.urls.api,
      headers: { Authorization: `Bearer ${signup.body.api_key}` },
    });
    expect(account.body.email).toBe('kept@example.com');
  }, 120_000);

  /** Kills a child of the stack and waits until the supervisor has started it again. */
  const killChild = (name: ComponentName, cutsSmtp = false): Kill => ({
    name,
    cutsSmtp,
    kill: async () => {
      const restarted = stack!.restarted(name);
      stack!.process(name)!.signal('SIGKILL');
      await restarted;
    },
  });
  const underTest = () => ({ api: stack!.urls.api!, inbox: stack!.urls.inbox!, mongodb: stack!.urls.mongodb });

  it('when each child (the validator and the Peppol network stand-in too) is killed in turn under load, then every accepted document is delivered by email (a second copy only where the kill of the worker or the mail server cut an attempt off), and every event reaches the webhook (a repeat only under its own id)', async () => {
    await documentsDeliveredOnceUnderKills(underTest(), 'under-load@example.com', [
      killChild('worker', true),
      killChild('temporal'),
      killChild('ferretdb'),
      killChild('mail', true),
      killChild('validator'),
      killChild('peppol-receiver'),
      killChild('peppol-network'),
      killChild('access-point'),
      killChild('api'),
    ]);
  }, 900_000);

  it('when the worker, Temporal, the database or the API is killed right after an AS4 receipt, then the document still reaches the inbox, once', async () => {
    const network = {
      accessPointUrl: stack!.urls.accessPoint,
      dataDir: config.DATA_DIR,
      standInUrl: stack!.urls.peppol!.receivingAccessPoint,
    };
    await receiptedMessagesFiledOnceUnderKills(underTest(), 'receiver@example.com', network, [
      killChild('worker'),
      killChild('temporal'),
      killChild('ferretdb'),
      killChild('api'),
    ]);
  }, 600_000);

  it('when the database is killed and restarted three times under load, then every answer meanwhile is a success or 503 with Retry-After (never 500), and the API serves again within 30 s of each restart', async () => {
    const api = stack!.urls.api!;
    const signup = await callApi('/v1/signup', {
      baseUrl: api,
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'database-outage@example.com' }),
    });
    const key: string = signup.body.api_key;
    const company = await callAs(key, '/v1/companies', { baseUrl: api, method: 'POST', body: { ...belgianSeller } });
    const answers: { status: number; retryAfter: string | null; retryable: boolean | undefined }[] = [];
    const accepted: string[] = [];
    let loading = true;
    // Documents are paced: unpaced, the API accepted some six hundred in the outages, whose validations and
    // PDFs then kept the next tests' documents queued for minutes on a two-core CI machine.
    const loader = (request: (n: number) => Promise<{ status: number; headers: Headers; body: any }>, pauseMs = 0) =>
      (async () => {
        for (let n = 0; loading; n += 1) {
          const response = await request(n);
          answers.push({
            status: response.status,
            retryAfter: response.headers.get('retry-after'),
            retryable: response.body?.error?.retry?.retryable,
          });
          if (response.status === 202) accepted.push(response.body.id);
          if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
        }
      })();
    const loaders = [
      loader(() => callAs(key, '/v1/companies', { baseUrl: api })),
      loader(
        (n) =>
          callAs(key, '/v1/documents', {
            baseUrl: api,
            method: 'POST',
            body: { ...validFixtures[0]!.body, company_id: company.body.id, number: `OUTAGE-${n}` },
          }),
        500,
      ),
    ];
    try {
      for (let round = 1; round <= 3; round += 1) {
        const restarted = stack!.restarted('ferretdb');
        stack!.process('ferretdb')!.signal('SIGKILL');
        await restarted;
        await until(
          `round ${round}: the API serving within 30 s of the database's restart`,
          () => callAs(key, '/v1/companies', { baseUrl: api }),
          (response) => response.status === 200,
          30_000,
        );
      }
    } finally {
      loading = false;
      await Promise.all(loaders);
    }
    expect(answers.filter((answer) => answer.status >= 500 && answer.status !== 503)).toEqual([]);
    const unavailable = answers.filter((answer) => answer.status === 503);
    for (const answer of unavailable)
      expect(answer).toMatchObject({ retryAfter: expect.stringMatching(/^\d+$/), retryable: true });
    expect(accepted.length).toBeGreaterThan(0);
    // What was accepted meanwhile is delivered: none was lost with a database that restarted under it.
    for (const id of accepted)
      expect(
        (await waitForStatus(key, id, company.body.id, ['delivered', 'failed'], 120_000, { baseUrl: api })).status,
      ).toBe('delivered');
  }, 420_000);

  describe('when the receiving access point is out', () => {
    const on = () => ({ apiUrl: stack!.urls.api!, mongodbUri: stack!.urls.mongodb });
    const live = () => ({ host: LIVE, baseUrl: stack!.urls.api! });
    const standIn = () => stack!.urls.peppol!.receivingAccessPoint;

    async function fundedLiveSender() {
      const sender = await liveSender(on());
      await withStore((store) => addCredits(store, operatorActor('test'), sender.workspaceId, '5.00'), on().mongodbUri);
      return sender;
    }

    const sendLive = (sender: { liveKey: string; companyId: string }, number: string) =>
      postLive(sender.liveKey, { ...validFixtures[0]!.body, company_id: sender.companyId, number }, live());

    it('when it does not answer for a while, then attempts are retried and, once it answers, the document is delivered and arrives once', async () => {
      const sender = await fundedLiveSender();
      const receiver = stack!.process('peppol-receiver')!;
      // Frozen, it accepts connections and answers nothing: every attempt runs into the access point's timeout.
      receiver.signal('SIGSTOP');
      let posted;
      try {
        posted = await sendLive(sender, 'LIVE-DOWN');
        expect(posted.status).toBe(202);
        const id: string = posted.body.id;
        await until(
          'a retry recorded while the receiving access point is down',
          () => liveHistory(sender.liveKey, id, live()),
          (history) => history.some((step) => step.step === 'retry'),
        );
      } finally {
        receiver.signal('SIGCONT');
      }
      const document = await waitForStatus(
        sender.liveKey,
        posted.body.id,
        sender.companyId,
        ['delivered', 'failed'],
        90_000,
        live(),
      );
      expect(document.status).toBe('delivered');
      const retry = (await liveHistory(sender.liveKey, posted.body.id, live())).find((step) => step.step === 'retry');
      expect(retry?.error_message).toBeTruthy();
      // The attempts that timed out reached its socket too; it keeps one copy of the message.
      expect(await standInArrivals(`${posted.body.id}@einvoice`, standIn())).toHaveLength(1);
    }, 180_000);

    it('when it is killed, then the document waits for the one the supervisor starts again and is delivered once', async () => {
      const sender = await fundedLiveSender();
      const restarted = stack!.restarted('peppol-receiver');
      stack!.process('peppol-receiver')!.signal('SIGKILL');
      const posted = await sendLive(sender, 'LIVE-KILLED');
      expect(posted.status).toBe(202);
      const document = await waitForStatus(
        sender.liveKey,
        posted.body.id,
        sender.companyId,
        ['delivered', 'failed'],
        90_000,
        live(),
      );
      expect(document.status).toBe('delivered');
      await restarted;
      expect(await standInArrivals(`${posted.body.id}@einvoice`, standIn())).toHaveLength(1);
    }, 180_000);
  });

  it('when the stack stops, then no child is left running, and a new start finds the data again', async () => {
    const pids = (
      [
        'temporal',
        'ferretdb',
        'mail',
        'validator',
        'peppol-receiver',
        'peppol-network',
        'access-point',
        'worker',
        'api',
      ] as const
    ).map((name) => stack!.process(name)!.pid!);
    expect(pids.every(isAlive)).toBe(true);
    await stack!.stop();
    expect(pids.filter(isAlive)).toEqual([]);

    stack = await startStack({ config, services: [] });
    const db = await mongoose.createConnection(stack.urls.mongodb).asPromise();
    try {
      expect(await db.collection('accounts').countDocuments({ email_key: 'kept@example.com' })).toBe(1);
    } finally {
      await db.close();
    }
    const description = await withTemporal(stack.urls.temporal, (client) =>
      client.workflow.getHandle('cleanup-while-worker-down').describe(),
    );
    expect(description.status.name).toBe('COMPLETED');
  }, 420_000);
});
