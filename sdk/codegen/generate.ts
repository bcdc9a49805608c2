import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { REGENERATE_COMMAND, SCHEMA_FILE, schemaSource } from './schema-source';

/**
 * `npm run sdk:generate`: writes the SDK's types from the API's code.
 * With `--check`, writes nothing and exits 1 when the committed file differs
 * from a fresh generation (the drift check npm test runs).
 */
async function main(): Promise<void> {
  const target = path.resolve(__dirname, '../..', SCHEMA_FILE);
  const fresh = await schemaSource();
  if (!process.argv.includes('--check')) {
    writeFileSync(target, fresh);
    console.log(`wrote ${SCHEMA_FILE}`);
    return;
  }
  if (readFileSync(target, 'utf8') !== fresh) {
    console.error(
      `${SCHEMA_FILE} is not what the API's code generates now: run \`${REGENERATE_COMMAND}\` and commit the file.`,
    );
    process.exitCode = 1;
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(2);
});
