import { ConfigError } from '../platform/config';
import { onParentGone } from '../platform/shutdown';
import { loadStackConfig } from './config';
import { readyBanner } from './banner';
import type { ServiceName } from './components';
import { startStack, type EmbeddedStack } from './embedded-stack';
import { StackError } from './errors';

/**
 * `npm start`: the whole service on this machine. Prints where everything is,
 * restarts a crashed child (see embedded-stack.ts), and stops every child on
 * Ctrl-C or SIGTERM, or when one keeps crashing.
 */
async function main(): Promise<void> {
  const config = loadStackConfig();
  const say = (line: string) => process.stdout.write(`[stack] ${line}\n`);
  const echo = (service: ServiceName, line: string) => process.stdout.write(`[${service}] ${line}\n`);

  // The handlers are in place before anything starts: a signal during start-up stops what has started.
  const starting = new AbortController();
  let stack: EmbeddedStack | undefined;
  let stopping = false;
  const shutdown = (reason: string, exitCode: number) => {
    if (stopping) return;
    stopping = true;
    say(`${reason}: stopping`);
    if (!stack) {
      starting.abort();
      return;
    }
    stack
      .stop()
      .then(() => {
        say('stopped');
        process.exit(exitCode);
      })
      .catch((err: unknown) => {
        say(`stop failed: ${String(err)}`);
        process.exit(1);
      });
  };
  process.on('SIGINT', () => shutdown('SIGINT', 0));
  process.on('SIGTERM', () => shutdown('SIGTERM', 0));
  process.on('SIGHUP', () => shutdown('SIGHUP', 0));
  // npm exits on SIGTERM without passing it on: the stack, orphaned, stops as if the signal were its own.
  // (Its components end with it in any case; see ManagedProcess.)
  onParentGone(() => shutdown('the process that started the stack is gone', 0));

  say(`starting in ${config.DATA_DIR}`);
  try {
    stack = await startStack({
      config,
      log: say,
      echo,
      signal: starting.signal,
      onGiveUp: (name) => shutdown(`${name} keeps crashing`, 1),
    });
  } catch (err) {
    if (!starting.signal.aborted) throw err;
    say('stopped');
    process.exit(0);
  }
  if (starting.signal.aborted) {
    // The signal came as the last component got ready.
    stopping = false;
    shutdown('stopped during start-up', 0);
    return;
  }

  process.stdout.write(readyBanner(stack.urls, config));
}

main().catch((err: unknown) => {
  const known = err instanceof StackError || err instanceof ConfigError;
  process.stderr.write(`[stack] ${known ? err.message : String((err as Error)?.stack ?? err)}\n`);
  process.exit(1);
});
