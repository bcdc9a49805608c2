/**
 * What the command is doing, said on stderr (stdout stays its answer alone) once a step has lasted
 * a second: a quick command prints nothing more, a slow one (a JVM building reports, a workflow
 * recording a decision, an AS4 exchange) is never silent. Only to a terminal: a script reading
 * stderr for the refusal finds the refusal alone.
 * @internal
 */
export const SAY_AFTER_MS = 1_000;

let pending: NodeJS.Timeout | undefined;
let write: (line: string) => void = (line) => {
  if (process.stderr.isTTY) process.stderr.write(line);
};

/** The step now under way; the previous one is over. */
export function doing(what: string): void {
  clearTimeout(pending);
  pending = setTimeout(() => write(`ops: ${what}…\n`), SAY_AFTER_MS);
  pending.unref();
}

/** The command is over: nothing more to say. */
export function done(): void {
  clearTimeout(pending);
  pending = undefined;
}

/**
 * For tests: where the lines go.
 * @internal
 */
export function sayingTo(writer: (line: string) => void): void {
  write = writer;
}
