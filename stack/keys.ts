import { randomBytes } from 'node:crypto';
import { link, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { newSecretKey } from '../domain/secret-box';
import { privateDirectory } from './private-files';

/**
 * The keys the embedded stack makes when none is configured (32 random bytes,
 * base64; domain/secret-box.ts), one file each in KEYS_DIR: outside DATA_DIR,
 * so that a copy of the data does not carry the keys that open it. A key is
 * made once and kept: losing it makes what it sealed unreadable.
 */

/** @internal */
export const WEBHOOK_KEY_FILE = 'webhook-secret.key';
export const KYC_KEY_FILE = 'kyc-encryption.key';
/** The bearer token our access point presents to the API's intake (INBOUND_TOKEN). */
export const INBOUND_TOKEN_FILE = 'inbound-token.key';

/** The key in `dir/file`, if there is one. */
export async function readKeyFile(dir: string, file: string): Promise<string | undefined> {
  try {
    return (await readFile(path.join(dir, file), 'utf8')).trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** The key in `dir/file`, made (readable by its owner only, in a directory only its owner enters) if there is none. */
export async function stackKey(dir: string, file: string): Promise<string> {
  const existing = await readKeyFile(dir, file);
  if (existing !== undefined) return existing;
  await privateDirectory(dir);
  // Written whole under a name of its own, then linked into place, which fails if a key is there:
  // of two starts racing, both read the one key that won, never a half-written file.
  // The draft's name is this call's own: two calls of one process race as two starts do.
  const draft = path.join(dir, `.${file}.${process.pid}.${randomBytes(6).toString('hex')}`);
  await writeFile(draft, `${newSecretKey()}\n`, { mode: 0o600 });
  try {
    await link(draft, path.join(dir, file)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err;
    });
  } finally {
    await rm(draft, { force: true });
  }
  return (await readKeyFile(dir, file))!;
}

/**
 * The key of webhook secrets: a data directory of an earlier version holds
 * its own, which sealed the secrets stored there, and keeps using it;
 * otherwise the one in KEYS_DIR.
 */
export async function webhookKey(dataDir: string, keysDir: string): Promise<string> {
  return (await readKeyFile(dataDir, WEBHOOK_KEY_FILE)) ?? stackKey(keysDir, WEBHOOK_KEY_FILE);
}
