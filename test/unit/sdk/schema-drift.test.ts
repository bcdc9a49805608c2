import { readFileSync } from 'node:fs';
import path from 'node:path';

import { REGENERATE_COMMAND, SCHEMA_FILE, schemaSource } from '../../../sdk/codegen/schema-source';

/**
 * The SDK's types are generated from the API's route declarations and
 * committed; a route changed (or merged) without regenerating fails here.
 */
describe('the SDK types (sdk/src/schema.ts)', () => {
  it('when generated again from the API code, then they equal the committed file', async () => {
    const committed = readFileSync(path.resolve(__dirname, '../../..', SCHEMA_FILE), 'utf8');
    const fresh = await schemaSource();
    if (fresh !== committed) {
      throw new Error(`${SCHEMA_FILE} is not what the API's code generates now: run \`${REGENERATE_COMMAND}\` and commit the file.`);
    }
  }, 120_000);
});
