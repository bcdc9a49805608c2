import { spawnSync } from 'node:child_process';
import path from 'node:path';

/**
 * The SDK's types are generated from the API's route declarations and
 * committed; a route changed (or merged) without regenerating fails here.
 * The generation runs in a child process: openapi-typescript loads an
 * ES-module-only dependency, which Node loads and jest's module system does not.
 */
const ROOT = path.resolve(__dirname, '../../..');

describe('the SDK types (sdk/src/schema.ts)', () => {
  it('when generated again from the API code, then they equal the committed file', () => {
    const run = spawnSync(path.join(ROOT, 'node_modules/.bin/tsx'), ['sdk/codegen/generate.ts', '--check'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 170_000,
    });
    if (run.status !== 0)
      throw new Error(`drift check exited ${run.status ?? run.signal}: ${run.stderr.trim() || run.stdout.trim()}`);
  }, 180_000);
});
