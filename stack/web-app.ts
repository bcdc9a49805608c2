import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

import { WEB_APP_DIR } from '../api/public/web-app';
import { sourcesDigest } from './digest';

/**
 * The web app (app/) built into dist/app before the API starts, as the
 * README's `npm run app:build` builds it; rebuilt only when what it is built
 * from changed (its sources, the SDK types it is typed by, the locked
 * packages), so a stack starts without a build when nothing did.
 */

const projectRoot = path.resolve(__dirname, '..');
const DIGEST_FILE = path.join(WEB_APP_DIR, '.sources-digest');

function filesUnder(dir: string): string[] {
  return readdirSync(path.join(projectRoot, dir), { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)]))
    .sort();
}

function webAppDigest(): string {
  const files = [...filesUnder('app'), 'sdk/src/schema.ts', 'package-lock.json'];
  return sourcesDigest('web-app', projectRoot, files, 16);
}

const builtDigest = (): string | undefined => {
  try {
    return readFileSync(DIGEST_FILE, 'utf8');
  } catch {
    return undefined;
  }
};

/** Builds the app unless dist/app holds a build of these very sources; returns whether it built. */
export async function ensureWebAppBuilt(): Promise<boolean> {
  const digest = webAppDigest();
  if (builtDigest() === digest) return false;
  const vite = path.join(projectRoot, 'node_modules', 'vite', 'bin', 'vite.js');
  await promisify(execFile)(
    process.execPath,
    [vite, 'build', '--config', path.join(projectRoot, 'app', 'vite.config.mjs'), '--logLevel', 'warn'],
    { cwd: projectRoot },
  );
  writeFileSync(DIGEST_FILE, digest);
  return true;
}
