import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A short content hash of the sources a tool is built from: a seed (e.g. a
 * list of edits, or a build file), then each file's name and bytes, in
 * order. Part of a tool's version, so a change to what it is built from
 * builds it anew instead of reusing a stale binary.
 */
export function sourcesDigest(seed: string | Buffer, dir: string, files: string[], length: number): string {
  const hash = createHash('sha256').update(seed);
  for (const file of files) hash.update(`\0${file}\0`).update(readFileSync(path.join(dir, file)));
  return hash.digest('hex').slice(0, length);
}
