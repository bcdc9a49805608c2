import { parseArgs } from 'node:util';

/** A command line the CLI does not take: said with the usage, exit code 2. */
export class UsageError extends Error {}

type OptionSpec = Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;

/**
 * The options of each command that has any (without `--`); every other command takes none.
 * @internal
 */
export const COMMAND_OPTIONS: Record<string, OptionSpec> = {
  'kyc list': { status: { type: 'string' } },
  stuck: { 'older-than': { type: 'string' } },
  reporting: { send: { type: 'boolean' }, out: { type: 'string' } },
  'network send': {
    via: { type: 'string' },
    'message-id': { type: 'string' },
    mls: { type: 'string' },
    'mls-to': { type: 'string' },
  },
  'network respond': {
    reason: { type: 'string', multiple: true },
    action: { type: 'string', multiple: true },
    note: { type: 'string' },
  },
};

export type CommandOptions = Record<string, string | boolean | (string | boolean)[] | undefined>;

export interface CommandLine {
  args: string[];
  options: CommandOptions;
}

/**
 * The words after a command's name: its arguments and its options, in any order (`--via oxalis` before the
 * receiver or after the file), as every CLI parser takes them; `--` ends the options (a reason that starts
 * with a dash). An option the command does not take, or one without its value, is a usage error.
 */
export function commandLine(command: string, words: string[]): CommandLine {
  try {
    const { positionals, values } = parseArgs({
      args: words,
      options: COMMAND_OPTIONS[command] ?? {},
      allowPositionals: true,
      strict: true,
    });
    return { args: positionals, options: values };
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** A string option's value, if given. */
export const textOption = (options: CommandOptions, name: string): string | undefined => {
  const value = options[name];
  return typeof value === 'string' ? value : undefined;
};

/** A repeatable option's values, in the order given. */
export const textOptions = (options: CommandOptions, name: string): string[] => {
  const value = options[name];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
};
