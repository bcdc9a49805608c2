import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';

import { defaultProcessCount } from '../../platform/process-copies';
import { until } from '../support/until';
import { isAlive } from '../../stack/process-alive';

/**
 * Several copies of one entry behind a primary (API_PROCESSES,
 * WORKER_PROCESSES): they share a port, a dead one is replaced, and SIGTERM to
 * the primary ends them all. Run on a stand-in entry (test/support/copies-fixture.ts).
 */

const FIXTURE = path.join(__dirname, '..', 'support', 'copies-fixture.ts');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * One request on a connection of its own (the primary hands out connections, not requests). A connection handed to
 * a copy that is dying may never be answered: after 3 s it counts as no answer, so the polling goes on.
 */
function get(port: number, urlPath = '/'): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: urlPath, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve(body));
    });
    req.setTimeout(3_000, () => req.destroy(new Error(`no answer on ${urlPath} within 3 s`)));
    req.on('error', reject);
    req.end();
  });
}

/** The pids that answer `tries` requests, once the port answers at all. */
async function answering(port: number, tries = 16): Promise<Set<string>> {
  const pids = new Set<string>();
  for (let i = 0; i < tries; i += 1) {
    const pid = await get(port).catch(() => undefined);
    if (pid) pids.add(pid);
    else await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return pids;
}

/** Each copy's place, by pid, among those that answer `tries` requests. */
async function placesAnswering(port: number, tries = 16): Promise<Map<string, string>> {
  const places = new Map<string, string>();
  for (let i = 0; i < tries; i += 1) {
    const [pid, place] = ((await get(port, '/place').catch(() => undefined)) ?? '').split(' ');
    if (pid && place) places.set(pid, place);
    else await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return places;
}

describe('process copies', () => {
  let primary: ChildProcess | undefined;
  const start = (copies: number, port: number, env: Record<string, string> = {}) => {
    primary = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
      env: { ...process.env, COPIES: String(copies), PORT: String(port), ...env },
      stdio: 'inherit',
    });
    return primary;
  };
  afterEach(() => {
    if (primary?.exitCode === null) primary.kill('SIGKILL');
  });

  it('one per core on a larger machine, at most 8, and one on two cores or fewer', () => {
    expect([1, 2, 3, 4, 16].map((cores) => defaultProcessCount(cores))).toEqual([1, 1, 3, 4, 8]);
  });

  it('when there are two, then both answer on the one port, a copy that dies is replaced, and SIGTERM to the primary ends every copy', async () => {
    const port = await freePort();
    const child = start(2, port);
    const first = await until(
      'two copies answering',
      () => answering(port),
      (pids) => pids.size === 2,
      30_000,
    );
    expect(first.size).toBe(2);
    expect(first.has(String(child.pid))).toBe(false);

    await get(port, '/die').catch(() => undefined);
    const after = await until(
      'a new copy in place of the dead one',
      () => answering(port),
      (pids) => pids.size === 2 && [...first].some((pid) => !pids.has(pid)),
      30_000,
    );
    expect(after.size).toBe(2);
    const dead = [...first].filter((pid) => !after.has(pid));
    expect(dead).toHaveLength(1);
    expect(isAlive(Number(dead[0]))).toBe(false);

    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const pid of after) expect(isAlive(Number(pid))).toBe(false);
  }, 90_000);

  it('when the parent of a process with END_WITH_PARENT is killed outright, then the process stops all the same', async () => {
    const port = await freePort();
    // A parent of its own between the test and the process, as the embedded stack is between npm and a component.
    const parentScript = `require('node:child_process').spawn(process.execPath, ['--import', 'tsx', ${JSON.stringify(FIXTURE)}], { stdio: 'ignore' }); setInterval(() => undefined, 60_000);`;
    primary = spawn(process.execPath, ['-e', parentScript], {
      env: { ...process.env, COPIES: '1', PORT: String(port), END_WITH_PARENT: '1' },
      stdio: 'inherit',
    });
    const [pid] = await until(
      'the process answering',
      () => answering(port, 4),
      (answered) => answered.size > 0,
      30_000,
    );
    primary.kill('SIGKILL');
    await until(
      'the process to end',
      () => Promise.resolve(isAlive(Number(pid))),
      (alive) => !alive,
      30_000,
    );
  }, 60_000);

  it('when a stop hangs, then the process ends at its deadline with exit code 1', async () => {
    const port = await freePort();
    const child = start(1, port, { STOP_HANGS: '500' });
    await until(
      'the process answering',
      () => answering(port, 4),
      (answered) => answered.size > 0,
      30_000,
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(1);
  }, 60_000);

  it('when there are two, then each knows its place (0 and 1), and the copy that replaces a dead one takes its place', async () => {
    const port = await freePort();
    start(2, port);
    const first = await until(
      'two copies telling their places',
      () => placesAnswering(port),
      (places) => places.size === 2,
      30_000,
    );
    expect([...first.values()].sort()).toEqual(['0', '1']);

    await get(port, '/die').catch(() => undefined);
    const after = await until(
      'a new copy in place of the dead one',
      () => placesAnswering(port),
      (places) => places.size === 2 && [...first.keys()].some((pid) => !places.has(pid)),
      30_000,
    );
    const [replacement] = [...after.keys()].filter((pid) => !first.has(pid));
    const [dead] = [...first.keys()].filter((pid) => !after.has(pid));
    expect(after.get(replacement!)).toBe(first.get(dead!));
    expect([...after.values()].sort()).toEqual(['0', '1']);
  }, 90_000);

  it('when every copy keeps failing as it starts, then the primary gives up with exit code 1, so its own supervisor sees the failure', async () => {
    const child = start(2, await freePort(), { FAIL_AT_START: '1' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    expect(await exited).toBe(1);
  }, 90_000);

  it('when there is one, then the entry runs in the process itself, with no primary', async () => {
    const port = await freePort();
    const child = start(1, port);
    const pids = await until(
      'a copy answering',
      () => answering(port, 4),
      (answered) => answered.size > 0,
      30_000,
    );
    expect([...pids]).toEqual([String(child.pid)]);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);
});
