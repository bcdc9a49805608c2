import path from 'node:path';

import { StackError } from './errors';
import { ManagedProcess } from './managed-process';

/** How one process of the stack is spawned and when it counts as ready. */
export interface ProcessSpec<Name extends string> {
  name: Name;
  command: string;
  args: () => Promise<string[]> | string[];
  /** What a person reads in progress and error lines ("the official validator"). */
  what: string;
  timeoutMs: number;
  ready: (managed: ManagedProcess) => Promise<boolean>;
  /** Variables changed from the services' environment. */
  env?: Record<string, string>;
  echo?: (line: string) => void;
  user?: { uid: number; gid: number };
  stopSignal?: NodeJS.Signals;
  logFilter?: (line: string) => string[];
}

export interface SupervisorOptions<Name extends string> {
  logsDir: string;
  /** The environment every process starts with (read when it is made, so later additions reach later processes). */
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
  /** Aborted: a start waiting for readiness stops waiting. */
  signal?: AbortSignal;
  /** Called when a process crashed too often to go on restarting it. */
  onGiveUp?: (name: Name) => void;
}

/** How often a start-up that is still waiting for a process says so. */
const PROGRESS_EVERY_MS = 15_000;
/** More crashes than this within the period and the supervisor gives up. */
const CRASH_LIMIT = { count: 5, periodMs: 60_000 };
const MAX_BACKOFF_MS = 30_000;

/**
 * Starts the stack's processes one at a time, each waited for until ready, and keeps them running: a process that
 * exits unexpectedly is started again after a backoff (1 s, doubling up to 30 s), until it has crashed more than
 * five times within a minute. Stopping closes them in the reverse order of their start.
 */
export class Supervisor<Name extends string> {
  private readonly processes = new Map<Name, ManagedProcess>();
  private readonly starters = new Map<Name, () => Promise<void>>();
  private readonly restartWaiters = new Map<Name, (() => void)[]>();
  private readonly crashes = new Map<Name, number[]>();
  private stopping = false;

  constructor(private readonly options: SupervisorOptions<Name>) {}

  /** Starts the process and waits until it is ready; the supervisor restarts it the same way. */
  async start(spec: ProcessSpec<Name>): Promise<void> {
    const start = async () => {
      const managed = this.processes.get(spec.name) ?? (await this.made(spec));
      this.processes.set(spec.name, managed);
      managed.onUnexpectedExit = (code) => this.crashed(spec.name, code);
      managed.start();
      await this.whenReady(managed, spec);
    };
    this.starters.set(spec.name, start);
    await start();
  }

  process(name: Name): ManagedProcess | undefined {
    return this.processes.get(name);
  }

  /** Stops the process and starts it again as it was declared, waiting until it is ready. */
  async startAgain(name: Name): Promise<void> {
    await this.processes.get(name)?.stop();
    await this.starters.get(name)!();
  }

  /** Closes the process and forgets it, so that the next start makes a new one (another environment). */
  async forget(name: Name): Promise<void> {
    await this.processes.get(name)?.close();
    this.processes.delete(name);
  }

  /** Resolves once the process has been started again by the supervisor (and is ready). */
  restarted(name: Name): Promise<void> {
    return new Promise((resolve) => this.restartWaiters.set(name, [...(this.restartWaiters.get(name) ?? []), resolve]));
  }

  /** Reverse start order: the API and worker drain before the services they use go away. */
  async stopAll(): Promise<void> {
    this.stopping = true;
    for (const managed of [...this.processes.values()].reverse()) await managed.close();
  }

  private async made(spec: ProcessSpec<Name>): Promise<ManagedProcess> {
    return new ManagedProcess(spec.name, spec.command, await spec.args(), {
      env: { ...this.options.env, ...spec.env },
      logFile: this.logFile(spec.name),
      ...(spec.echo && { echo: spec.echo }),
      ...(spec.user && { user: spec.user }),
      ...(spec.stopSignal && { stopSignal: spec.stopSignal }),
      ...(spec.logFilter && { logFilter: spec.logFilter }),
    });
  }

  private logFile(name: Name): string {
    return path.join(this.options.logsDir, `${name}.log`);
  }

  private async whenReady(managed: ManagedProcess, spec: ProcessSpec<Name>): Promise<void> {
    const { what, timeoutMs } = spec;
    const startedAt = Date.now();
    const deadline = startedAt + timeoutMs;
    let nextProgress = startedAt + PROGRESS_EVERY_MS;
    while (Date.now() < deadline) {
      if (this.options.signal?.aborted) throw new StackError(`stopped while waiting for ${what}`);
      if (!managed.running) throw new StackError(`${what} exited during start-up. Its last output:\n${managed.tail()}`);
      if (await spec.ready(managed)) return;
      if (Date.now() >= nextProgress) {
        // A JVM compiling its rules takes tens of seconds, more on a busy machine: say it is not stuck.
        const waited = Math.round((Date.now() - startedAt) / 1000);
        this.options.log(`still waiting for ${what} (${waited} s; at most ${timeoutMs / 1000} s)`);
        nextProgress += PROGRESS_EVERY_MS;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new StackError(`${what} was not ready after ${timeoutMs / 1000} s. Its last output:\n${managed.tail()}`);
  }

  private crashed(name: Name, code: number | null): void {
    if (this.stopping) return;
    const { log } = this.options;
    const now = Date.now();
    const recent = [...(this.crashes.get(name) ?? []), now].filter((at) => at > now - CRASH_LIMIT.periodMs);
    this.crashes.set(name, recent);
    if (recent.length > CRASH_LIMIT.count) {
      log(
        `${name} crashed ${recent.length} times within ${CRASH_LIMIT.periodMs / 1000} s; giving up (see ${this.logFile(name)})`,
      );
      this.options.onGiveUp?.(name);
      return;
    }
    const delay = Math.min(MAX_BACKOFF_MS, 1_000 * 2 ** (recent.length - 1));
    log(
      `${name} exited unexpectedly (code ${code}); restarting in ${delay / 1000} s ` +
        `(restart ${recent.length} of at most ${CRASH_LIMIT.count} per minute)`,
    );
    setTimeout(() => {
      if (this.stopping) return;
      this.starters.get(name)!()
        .then(() => {
          log(`${name} restarted`);
          for (const resolve of this.restartWaiters.get(name) ?? []) resolve();
          this.restartWaiters.delete(name);
        })
        .catch((err: unknown) => log(`${name} did not come back: ${(err as Error).message}`));
    }, delay).unref();
  }
}
