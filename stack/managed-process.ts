import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, type WriteStream } from 'node:fs';
import path from 'node:path';

import { END_WITH_PARENT } from '../platform/shutdown';

/**
 * util-linux's `setpriv`, when the machine has it: a child started through it gets SIGTERM from the
 * kernel when the process that started it is gone, however it went (even SIGKILL), so no component
 * outlives its stack. It execs the command, so the child's pid is the command's.
 */
const SETPRIV = (process.env.PATH ?? '')
  .split(path.delimiter)
  .map((dir) => path.join(dir, 'setpriv'))
  .find((candidate) => existsSync(candidate));

/**
 * A child of the embedded stack. It runs in its own process group so the stack
 * decides the shutdown order (Ctrl-C reaches only the supervisor) and so a
 * child's own children (e.g. a Node loader) are stopped with it. It can be
 * started again after it exits (the supervisor restarts crashed children).
 * It ends with the process that started it (see SETPRIV).
 */
export class ManagedProcess {
  private child: ChildProcess | undefined;
  private recent: string[] = [];
  private logStream: WriteStream | undefined;
  private exitPromise: Promise<number | null> = Promise.resolve(null);
  private stopping = false;
  /** Called when the process exits without having been asked to stop. */
  onUnexpectedExit: ((code: number | null) => void) | undefined;

  constructor(
    readonly name: string,
    private readonly command: string,
    private readonly args: string[],
    private readonly options: {
      env: NodeJS.ProcessEnv;
      logFile: string;
      echo?: (line: string) => void;
      /** The user to run as (PostgreSQL refuses to run as root). */
      user?: { uid: number; gid: number };
      /** What asks it to stop (default SIGTERM; PostgreSQL's SIGTERM waits for every client to leave, its SIGINT does not). */
      stopSignal?: NodeJS.Signals;
      /** Which of its output lines go to its log file, each line in, the lines to write out (default: everything, as written). */
      logFilter?: (line: string) => string[];
    },
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resolves with the exit code (null when killed by a signal). */
  get exited(): Promise<number | null> {
    return this.exitPromise;
  }

  start(): void {
    if (this.running) throw new Error(`${this.name} is already running`);
    this.stopping = false;
    this.logStream ??= createWriteStream(this.options.logFile, { flags: 'a' });
    const [command, args] = SETPRIV
      ? [SETPRIV, ['--pdeathsig', 'TERM', '--', this.command, ...this.args]]
      : [this.command, this.args];
    const child = spawn(command, args, {
      // Without setpriv, our own processes watch for the parent's end themselves (platform/shutdown.ts); with it, one SIGTERM is enough.
      env: SETPRIV ? this.options.env : { ...this.options.env, [END_WITH_PARENT]: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      ...this.options.user,
    });
    this.child = child;
    this.exitPromise = new Promise((resolve) => {
      child.once('error', (err) => {
        this.remember(`failed to start: ${err.message}`);
        resolve(-1);
      });
      child.once('exit', (code) => resolve(code));
    });
    void this.exitPromise.then((code) => {
      if (!this.stopping && this.child === child) this.onUnexpectedExit?.(code);
    });
    for (const stream of [child.stdout, child.stderr]) {
      let partial = '';
      const { logFilter } = this.options;
      stream?.on('data', (chunk: Buffer) => {
        if (!logFilter) this.logStream?.write(chunk);
        const lines = (partial + chunk.toString()).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) {
          if (logFilter) for (const kept of logFilter(line)) this.logStream?.write(`${kept}\n`);
          this.remember(line);
        }
      });
    }
  }

  private remember(line: string): void {
    this.recent.push(line);
    if (this.recent.length > 40) this.recent.shift();
    this.options.echo?.(line);
  }

  /** The last lines the process printed, for error messages. */
  tail(): string {
    return this.recent.join('\n');
  }

  /** Sends a signal to the whole process group. */
  signal(signal: NodeJS.Signals): void {
    if (!this.running || this.child?.pid === undefined) return;
    try {
      process.kill(-this.child.pid, signal);
    } catch {
      // Already gone.
    }
  }

  /** Its stop signal, then SIGKILL if the process is still there after the grace period. Not a crash: nothing restarts it. */
  async stop(graceMs = 15_000): Promise<void> {
    this.stopping = true;
    if (this.running) {
      this.signal(this.options.stopSignal ?? 'SIGTERM');
      const timer = setTimeout(() => this.signal('SIGKILL'), graceMs);
      await this.exitPromise;
      clearTimeout(timer);
    }
    // The group may still hold grandchildren that ignored SIGTERM.
    if (this.child?.pid !== undefined) {
      try {
        process.kill(-this.child.pid, 'SIGKILL');
      } catch {
        // Nothing left.
      }
    }
  }

  /** Stops the process and closes its log. */
  async close(): Promise<void> {
    await this.stop();
    await new Promise<void>((resolve) => (this.logStream ? this.logStream.end(resolve) : resolve()));
    this.logStream = undefined;
  }
}
