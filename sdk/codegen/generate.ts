import { writeFileSync } from 'node:fs';
import path from 'node:path';

import { SCHEMA_FILE, schemaSource } from './schema-source';

/** `npm run sdk:generate`: writes the SDK's types from the API's code. */
async function main(): Promise<void> {
  const target = path.resolve(__dirname, '../..', SCHEMA_FILE);
  writeFileSync(target, await schemaSource());
  console.log(`wrote ${SCHEMA_FILE}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
