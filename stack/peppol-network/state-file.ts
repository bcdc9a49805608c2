import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

import type { z } from 'zod';

/**
 * A stand-in's state in one JSON file, rewritten whole and renamed into place
 * on every change, so a crash leaves the old or the new state, never half of
 * one. A missing file is the empty state; a file of another shape stops the
 * stand-in rather than be overwritten.
 */

export async function readStateFile<Schema extends z.ZodTypeAny>(
  file: string,
  schema: Schema,
  empty: z.output<Schema>,
  what: string,
): Promise<z.output<Schema>> {
  const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  if (text === undefined) return empty;
  const parsed = schema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`${file} is not ${what}: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

export async function writeStateFile(file: string, state: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const draft = `${file}.${process.pid}.tmp`;
  await writeFile(draft, `${JSON.stringify(state, null, 2)}\n`);
  await rename(draft, file);
}
