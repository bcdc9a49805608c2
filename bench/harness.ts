import { readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';

import { convertDocument } from '../domain/documents/convert';
import { documentInputSchema } from '../domain/documents/input';
import type { ComponentName } from '../stack/components';
import { startStack, type EmbeddedStack } from '../stack/embedded-stack';
import { isolatedStackConfig } from '../stack/isolated-config';
import { validFixtures } from '../test/fixtures/documents';
import { ms } from './support';

/**
 * Running a benchmark: its output, its settings, its own stack, and cleaning up however it ends; the requests and
 * the invoice the benchmarks share.
 */

export const say = (line: string) => process.stdout.write(`${line}\n`);

export const envNumber = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

/** A benchmark's entry point: a failure prints its stack and exits 1. */
export function runBenchmark(main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    process.stderr.write(`${String((err as Error)?.stack ?? err)}\n`);
    process.exit(1);
  });
}

/** Ctrl-C or SIGTERM cleans up first (nothing left running, no data left behind), then exits 130. */
export function cleanUpOnInterrupt(cleanUp: () => Promise<unknown>): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void cleanUp().finally(() => process.exit(130)));
}

/** An embedded stack of the benchmark's own; `stop` (or an interrupt) stops it and removes its data. */
export async function benchStack(
  overrides: Record<string, string>,
): Promise<{ stack: EmbeddedStack; stop: () => Promise<void> }> {
  const config = await isolatedStackConfig({ RATE_LIMIT_SANDBOX: '10000000', LOG_LEVEL: 'error', ...overrides });
  const stack = await startStack({ config });
  const stop = () => stack.stop().then(() => rm(config.DATA_DIR, { recursive: true, force: true }));
  cleanUpOnInterrupt(stop);
  return { stack, stop };
}

/** A JSON request: the answer's status and body. */
export async function json(url: string, init: RequestInit = {}) {
  const response = await fetch(url, { ...init, headers: { 'Content-Type': 'application/json', ...init.headers } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** An XML document POSTed: the answer's status, its body read to the end (the request is over only then). */
export async function postXml(url: string, xml: string, headers: Record<string, string> = {}): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/xml' },
    body: xml,
  });
  await response.arrayBuffer();
  return response.status;
}

/** The first valid fixture, an invoice, as the UBL the service converts it to. */
export function fixtureInvoiceUbl(): string {
  const fixture = validFixtures[0]!;
  const converted = convertDocument(documentInputSchema.parse(fixture.body), fixture.company);
  if (!converted.ok) throw new Error('the fixture does not convert');
  return converted.ubl;
}

/** A new account (`<label>-<time>@example.com`) with the given company: its authorization header, the company's id and its workspace's. */
export async function signUpWithCompany(
  api: string,
  label: string,
  company: object,
): Promise<{ auth: Record<string, string>; companyId: string; workspaceId: string }> {
  const signup = await json(`${api}/v1/signup`, {
    method: 'POST',
    body: JSON.stringify({ email: `${label}-${Date.now()}@example.com` }),
  });
  const auth = { Authorization: `Bearer ${String(signup.body.api_key)}` };
  const created = await json(`${api}/v1/companies`, { method: 'POST', headers: auth, body: JSON.stringify(company) });
  return { auth, companyId: String(created.body.id), workspaceId: String(signup.body.workspace_id) };
}

/** USER_HZ is 100 on Linux: /proc counts CPU time in hundredths of a second. */
const MS_PER_TICK = 1000 / 100;

/** Every process now running: its pid, its parent's and the CPU ticks it has used (Linux's /proc/<pid>/stat). */
function processTable(): { pid: number; ppid: number; ticks: number }[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        // After the command's closing parenthesis: state, ppid, ... utime (14th field), stime (15th).
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        return [{ pid: Number(pid), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) }];
      } catch {
        return []; // Gone since the listing.
      }
    });
}

/** A process and its children: the copies of an API or worker run as several (platform/process-copies.ts). */
export const withChildren = (pid: number, processes = processTable()): number[] =>
  processes.filter((entry) => entry.pid === pid || entry.ppid === pid).map((entry) => entry.pid);

/** CPU time (user + system, ms) each named component of the stack has used so far, its copies included. */
function componentCpuMs<Name extends ComponentName>(
  stack: EmbeddedStack,
  names: readonly Name[],
): Record<Name, number> {
  const processes = processTable();
  const ticksOf = new Map(processes.map((entry) => [entry.pid, entry.ticks]));
  return Object.fromEntries(
    names.map((name) => {
      const pid = stack.process(name)?.pid;
      if (!pid) throw new Error(`the stack runs no ${name}`);
      const ticks = withChildren(pid, processes).reduce((sum, member) => sum + ticksOf.get(member)!, 0);
      return [name, ticks * MS_PER_TICK];
    }),
  ) as Record<Name, number>;
}

/**
 * CPU time (ms) PostgreSQL's connections have used so far, by the role each serves (its process title is
 * `postgres: <role> <database> <client> <state>`): which of the production shape's two users of PostgreSQL,
 * the Temporal server or FerretDB, costs it what. Connections that have ended are not counted.
 */
export function postgresCpuByRole(stack: EmbeddedStack): Record<string, number> {
  const postmaster = stack.process('postgres')?.pid;
  if (!postmaster) return {};
  const byRole: Record<string, number> = {};
  for (const entry of processTable().filter((candidate) => candidate.ppid === postmaster)) {
    let title: string;
    try {
      title = readFileSync(`/proc/${entry.pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
    } catch {
      continue; // Gone since the listing.
    }
    // Background processes (checkpointer, walwriter, autovacuum) have titles of other shapes.
    const role = /^postgres: (\w+) \w+ (?:\[local\]|[\d.:a-f]+\(\d+\))/.exec(title)?.[1] ?? 'background';
    byRole[role] = (byRole[role] ?? 0) + entry.ticks * MS_PER_TICK;
  }
  return byRole;
}

/** How CPU figures name the benchmark's own process: a floor's client (and its worker, when it has one). */
const BENCH_PROCESS = 'the benchmark process';

/**
 * The measurement and the CPU (ms) each named component spent during it; with `benchProcess`, this process's
 * too, for a floor whose client is part of what it costs (a measured path's client is not: the API is).
 */
export async function withCpu<T, Name extends ComponentName>(
  stack: EmbeddedStack,
  components: readonly Name[],
  measure: () => Promise<T>,
  options: { benchProcess?: boolean } = {},
): Promise<[T, Record<Name, number>]> {
  // Against the compose services only the API and the worker are local processes.
  const names = components.filter((name) => stack.process(name));
  const before = componentCpuMs(stack, names);
  const ownBefore = process.cpuUsage();
  const result = await measure();
  const after = componentCpuMs(stack, names);
  const own = process.cpuUsage(ownBefore);
  const spent = Object.fromEntries(names.map((name) => [name, after[name] - before[name]])) as Record<Name, number>;
  return [result, options.benchProcess ? { ...spent, [BENCH_PROCESS]: (own.user + own.system) / 1000 } : spent];
}

/** CPU per operation summed over the components (ms). */
export const cpuPerOperation = (cpu: Record<string, number>, operations: number) =>
  Object.values(cpu).reduce((sum, total) => sum + total, 0) / operations;

/** CPU per operation of each component, and their sum; over `seconds`, also each one's share of a core (the busiest saturates first). */
export const cpuView = (cpu: Record<string, number>, operations: number, seconds?: number) =>
  `${Object.entries(cpu)
    .map(
      ([name, total]) =>
        `${name} ${ms(total / operations)}${seconds ? ` (${((100 * total) / (seconds * 1000)).toFixed(0)} % of a core)` : ''}`,
    )
    .join(', ')}; ${ms(cpuPerOperation(cpu, operations))} in all`;
