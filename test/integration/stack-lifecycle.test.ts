import { rm } from 'node:fs/promises';

import { Client, Connection } from '@temporalio/client';
import mongoose from 'mongoose';

import type { Config } from '../../platform/config';
import { startStack, type EmbeddedStack } from '../../stack/embedded-stack';
import { TASK_QUEUE } from '../../workflows/shared';
import { callApi } from '../support/http';
import { isolatedStackConfig } from '../support/test-stack';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

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
 * restarts its processes and stops the whole stack.
 */
describe('the embedded stack lifecycle', () => {
  let config: Config;
  let stack: EmbeddedStack | undefined;

  beforeAll(async () => {
    config = await isolatedStackConfig();
    stack = await startStack({ config });
  }, 240_000);

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

  it(
    'when the worker is killed, then work queued meanwhile completes after it starts again',
    async () => {
      const worker = stack!.process('worker')!;
      worker.signal('SIGKILL');
      await worker.exited;

      await withTemporal(stack!.urls.temporal, async (client) => {
        const handle = await client.workflow.start('cleanupRateWindowsWorkflow', { taskQueue: TASK_QUEUE, workflowId: 'cleanup-while-worker-down' });
        await stack!.startService('worker');
        await expect(handle.result()).resolves.toEqual(expect.any(Number));
      });
    },
    240_000,
  );

  it(
    'when the API is killed, then it starts again on the same data',
    async () => {
      const signup = await callApi('/v1/signup', {
        baseUrl: stack!.urls.api,
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'kept@example.com' }),
      });
      expect(signup.status).toBe(201);
      const api = stack!.process('api')!;
      api.signal('SIGKILL');
      await api.exited;
      await expect(callApi('/v1/health', { baseUrl: stack!.urls.api })).rejects.toThrow();

      await stack!.startService('api');
      expect((await callApi('/v1/health', { baseUrl: stack!.urls.api })).body.checks).toEqual({ db: 'ok', temporal: 'ok' });
      const account = await callApi('/v1/account', { baseUrl: stack!.urls.api, headers: { Authorization: `Bearer ${signup.body.api_key}` } });
      expect(account.body.email).toBe('kept@example.com');
    },
    120_000,
  );

  it(
    'when the stack stops, then no child is left running, and a new start finds the data again',
    async () => {
      const pids = ['temporal', 'ferretdb', 'mail', 'worker', 'api'].map((name) => stack!.process(name)!.pid!);
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
    },
    240_000,
  );
});
