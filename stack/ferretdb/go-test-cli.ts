import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { commandRunner } from '../tools';
import { FERRETDB_BUILD_TAG, FERRETDB_RELEASE, writeEinvoiceSource } from './build';

/**
 * The packages whose tests run: the SQLite backend (our tests of the pushdown, the indexed `_id` and
 * compare-and-swap, beside FerretDB's own tests of that package) and the update code our edits change.
 * Not run: FerretDB's metadata test, which asserts the released index expression our build replaces, and the
 * packages whose tests need a PostgreSQL server (the production shape's engines test covers that handler).
 */
const PACKAGES = ['./internal/backends/sqlite/', './internal/handler/common/'];

const go = commandRunner('go');

/** `npm run test:ferretdb`: builds the einvoice FerretDB source tree in a scratch directory and runs `go test` in it. */
async function main(): Promise<void> {
  const source = await mkdtemp(path.join(os.tmpdir(), 'einvoice-ferretdb-test-'));
  try {
    await writeEinvoiceSource(go, source, `${FERRETDB_RELEASE}-${FERRETDB_BUILD_TAG}`);
    // FerretDB's test helpers find the module's root by its .git directory, which a downloaded module lacks.
    await mkdir(path.join(source, '.git'));
    await go(['test', '-count=1', ...PACKAGES], { cwd: source, echo: true });
  } finally {
    await rm(source, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`[ferretdb tests] ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
