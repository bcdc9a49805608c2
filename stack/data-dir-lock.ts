import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { StackError } from './errors';
import { isAlive } from './process-alive';

export interface DataDirLock {
  release(): Promise<void>;
}

/**
 * One stack per DATA_DIR: two Temporal servers or two FerretDBs on the same
 * SQLite files would corrupt each other. A lock left by a killed stack is stale
 * (its pid is gone) and is taken over.
 */
export async function acquireDataDirLock(dataDir: string): Promise<DataDirLock> {
  await mkdir(dataDir, { recursive: true });
  const lockFile = path.join(dataDir, 'stack.pid');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      await writeFile(lockFile, String(process.pid), { flag: 'wx' });
      return { release: () => rm(lockFile, { force: true }) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number((await readFile(lockFile, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) {
        throw new StackError(
          `DATA_DIR ${dataDir} is in use by a running stack (pid ${holder}). Stop it first, or set DATA_DIR to another directory.`,
        );
      }
      await rm(lockFile, { force: true });
    }
  }
  throw new StackError(`could not take the lock on DATA_DIR ${dataDir}`);
}
