import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';

import { isolatedStackConfig } from '../../stack/isolated-config';
import { until } from '../support/until';
import { sharedStack } from '../support/test-stack';
import { isAlive } from '../../stack/process-alive';

/**
 * However the process that started an embedded stack goes (a signal to npm's own process, as a
 * supervisor sends it; SIGKILL, as a CI timeout or the OOM killer does to jest), none of the
 * stack's components outlives it: neither `npm start`'s nor the test suite's. The stacks here run Temporal, FerretDB, the mail sink, the worker and the
 * API of their own; the JVMs are the shared stack's, so each start takes seconds, not minutes.
 */

const projectRoot = path.resolve(__dirname, '../..');
/** Every stack started here, stopped and removed after the tests even when its start failed. */
const started: { child: ChildProcess; dataDir: string }[] = [];

/** Every component stopping at once on a loaded two-core machine (the worker and the JVMs shut down in order). */
const SHUTDOWN_WAIT_MS = 180_000;

/** The components still running, each with its command line, so a wait that runs out says which. */
async function stillRunning(components: number[]): Promise<string[]> {
  const alive = components.filter(isAlive);
  return Promise.all(
    alive.map(
      async (pid) =>
        `${pid} ${(await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).replace(/\0/g, ' ').slice(0, 160)}`,
    ),
  );
}

/** Every process below `root`, from /proc (a component runs in a process group of its own, so the group says nothing). */
async function descendantsOf(root: number): Promise<number[]> {
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // The command name may hold spaces and parentheses; the fields after its closing one are fixed.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] !== 'Z' && fields[1]) parents.set(Number(entry), Number(fields[1]));
  }
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const [child, parent] of parents) {
      if (parent === pid) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(root);
  return found;
}

/** A stack started by `command` on a data directory and ports of its own (its environment, with `variables`), resolved once it prints `ready`. */
async function startedStack(
  command: string,
  args: string[],
  ready = 'E-invoice delivery service is ready',
  variables: Record<string, string> = {},
): Promise<{ child: ChildProcess; output: () => string; dataDir: string }> {
  const shared = sharedStack();
  const config = await isolatedStackConfig();
  // Our SMP is served only beside an access point the stack runs itself, which this one borrows.
  const ports = Object.entries(config).filter(
    ([name, value]) => (name === 'PORT' || name.endsWith('_PORT')) && name !== 'SMP_PORT' && typeof value === 'number',
  );
  const env = {
    ...process.env,
    ...Object.fromEntries(ports.map(([name, value]) => [name, String(value)])),
    DATA_DIR: config.DATA_DIR,
    API_PROCESSES: '1',
    WORKER_PROCESSES: '1',
    VALIDATOR_URL: shared.validatorUrl,
    ACCESS_POINT_URL: shared.accessPointUrl,
    PEPPOL_DNS_SERVER: shared.peppol.dnsServer,
    PEPPOL_SML_ZONE: shared.peppol.zone,
    ...variables,
  };
  const child = spawn(command, args, { cwd: projectRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push({ child, dataDir: config.DATA_DIR });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await until(
    'the stack to say it is running',
    () => Promise.resolve(output),
    (text) => text.includes(ready) || child.exitCode !== null,
    240_000,
  );
  if (child.exitCode !== null) throw new Error(`the stack exited during start-up:\n${output}`);
  return { child, output: () => output, dataDir: config.DATA_DIR };
}

describe('an embedded stack ends with the process that started it', () => {
  afterAll(async () => {
    for (const { child, dataDir } of started) {
      if (child.pid && isAlive(child.pid)) child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  // npm passes SIGINT and SIGTERM on to its script's process; the script execs node, so no `sh -c` stands
  // between them to swallow SIGINT (as it did: every component was still up 30 s after a SIGINT to npm).
  it.each([
    ['SIGINT', 'development'],
    ['SIGTERM', 'development'],
    ['SIGINT', 'production'],
  ] as const)(
    'when npm start gets %s in its own process (the %s shape), then the stack stops in order on that signal and nothing of it is left',
    async (signal, shape) => {
      const stack = await startedStack('npm', ['start'], undefined, { STACK_SHAPE: shape });
      const components = await descendantsOf(stack.child.pid!);
      expect(components.length).toBeGreaterThanOrEqual(5);
      stack.child.kill(signal);
      await until(
        'every component to end',
        () => stillRunning(components),
        (alive) => alive.length === 0,
        SHUTDOWN_WAIT_MS,
      );
      // The stack's own shutdown ran on the signal itself (API and worker drained first), not on finding itself orphaned.
      expect(stack.output()).toContain(`[stack] ${signal}: stopping`);
      expect(stack.output()).toContain('[stack] stopped');
    },
    480_000,
  );

  it('when the process holding a test stack is killed outright (as a CI timeout does to jest), then every component ends all the same', async () => {
    // The suite's shared stack, started as jest's global setup starts it, in a process of its own.
    const stack = await startedStack(
      process.execPath,
      ['--import', 'tsx', '-e', "void require('./test/global-setup.ts').startSharedStack({})"],
      '[test stack] api',
    );
    const components = await descendantsOf(stack.child.pid!);
    expect(components.length).toBeGreaterThanOrEqual(5);
    stack.child.kill('SIGKILL');
    await until(
      'every component to end',
      () => stillRunning(components),
      (alive) => alive.length === 0,
      SHUTDOWN_WAIT_MS,
    );
    // The global setup chose a data directory of its own; it says which.
    const dataDir = /\(state in (\S+)\/temporal/.exec(stack.output())?.[1];
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }, 480_000);
});
