import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { promisify } from 'node:util';

import type { StackConfig } from '../../stack/config';
import type { ComponentName } from '../../stack/components';
import { startStack, type EmbeddedStack } from '../../stack/embedded-stack';
import { isolatedStackConfig } from '../support/test-stack';
import {
  documentsDeliveredOnceUnderKills,
  receiptedMessagesFiledOnceUnderKills,
  type Kill,
} from '../support/under-load';
import { until } from '../support/until';

const run = promisify(execFile);

/**
 * The production shape's engines failing under load: one of the two API processes and one of the two workers
 * killed (their primary starts another; the other keeps serving), the Temporal server killed and started again,
 * PostgreSQL killed and started again under the Temporal server and FerretDB. The invariants are the development
 * lifecycle test's: every accepted document delivered once, every event once per delivery id, every receipted
 * message filed once. A stack of its own, since this kills its processes.
 */
describe('the production shape when its processes fail', () => {
  let config: StackConfig;
  let stack: EmbeddedStack | undefined;

  beforeAll(async () => {
    config = await isolatedStackConfig({
      STACK_SHAPE: 'production',
      API_PROCESSES: '2',
      WORKER_PROCESSES: '2',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_INITIAL_INTERVAL: '1s',
      // Every client is the front proxy's 127.0.0.1 (test/production/global-setup.ts).
      SIGNUP_LIMIT: '1000',
      RATE_LIMIT_SANDBOX: '6000',
    });
    stack = await startStack({ config });
  }, 300_000);

  afterAll(async () => {
    await stack?.stop();
    await rm(config.DATA_DIR, { recursive: true, force: true });
  });

  const copiesOf = async (name: ComponentName): Promise<number[]> => {
    const { stdout } = await run('pgrep', ['-P', String(stack!.process(name)!.pid)]).catch(() => ({ stdout: '' }));
    return stdout.split('\n').filter(Boolean).map(Number);
  };

  /** Kills one of a component's process copies; its primary starts another, which is waited for. */
  const killOneCopy = (name: 'api' | 'worker', cutsSmtp: boolean): Kill => ({
    name: `one ${name} process`,
    cutsSmtp,
    kill: async () => {
      const before = await copiesOf(name);
      expect(before).toHaveLength(2);
      process.kill(before[0]!, 'SIGKILL');
      await until(
        `a new ${name} process in place of ${before[0]}`,
        () => copiesOf(name),
        (now) => now.length === 2 && !now.includes(before[0]!),
      );
    },
  });

  /** Kills a whole engine; the stack's supervisor starts it again, which is waited for. */
  const killEngine = (name: 'temporal' | 'postgres'): Kill => ({
    name,
    cutsSmtp: false,
    kill: async () => {
      const restarted = stack!.restarted(name);
      stack!.process(name)!.signal('SIGKILL');
      await restarted;
    },
  });

  const kills = () => [
    killOneCopy('api', false),
    killOneCopy('worker', true),
    killEngine('temporal'),
    killEngine('postgres'),
  ];
  const underTest = () => ({ api: stack!.urls.api!, inbox: stack!.urls.inbox!, mongodb: stack!.urls.mongodb });

  it('when an API process, a worker, the Temporal server and PostgreSQL are killed in turn under load, then every accepted document is delivered once and every event reaches the webhook once', async () => {
    await documentsDeliveredOnceUnderKills(underTest(), 'production-load@example.com', kills());
  }, 900_000);

  it('when an API process, a worker, the Temporal server and PostgreSQL are killed right after AS4 receipts, then each message is filed once', async () => {
    const network = {
      accessPointUrl: stack!.urls.accessPoint,
      dataDir: config.DATA_DIR,
      standInUrl: stack!.urls.peppol!.receivingAccessPoint,
    };
    await receiptedMessagesFiledOnceUnderKills(underTest(), 'production-receiver@example.com', network, kills());
  }, 600_000);
});
