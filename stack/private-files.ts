import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * What the embedded stack keeps (data, logs, keys) is for the user who runs
 * it only: files that it and its children create are 0600 and directories
 * 0700 (umask 077, which every child inherits: the SQLite files of FerretDB
 * and Temporal, the mail sink's mails, the access points' state), and what
 * an earlier version created more openly is tightened at each start.
 */

/** From now on, this process and every child it starts create files for their user only. */
export function createFilesPrivately(): void {
  process.umask(0o077);
}

/** Makes `dir` if needed, and takes away group's and others' access to it and everything in it. */
export async function privateDirectory(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await tighten(dir);
}

/** A file may vanish while the tree is walked (a running stack's journals): nothing to tighten then. */
function unlessVanished(err: NodeJS.ErrnoException): undefined {
  if (err.code !== 'ENOENT') throw err;
  return undefined;
}

async function tighten(entry: string): Promise<void> {
  const stats = await lstat(entry).catch(unlessVanished);
  // A symbolic link's own mode means nothing, and what it points at is not the stack's.
  if (!stats || stats.isSymbolicLink()) return;
  if ((stats.mode & 0o077) !== 0) await chmod(entry, stats.mode & 0o700).catch(unlessVanished);
  if (!stats.isDirectory()) return;
  for (const name of (await readdir(entry).catch(unlessVanished)) ?? []) await tighten(path.join(entry, name));
}
