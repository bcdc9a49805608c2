import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

import { createClient, originOf } from '../sdk/src';
import { einvoiceMcpServer } from './server';
import { settingsFrom, SettingsError } from './settings';

/**
 * `npm run --silent mcp` (or `npx tsx mcp/main.ts`): the MCP server on stdio,
 * acting with EINVOICE_API_KEY against EINVOICE_BASE_URL (a live key against
 * EINVOICE_LIVE_BASE_URL). stdout carries the
 * protocol only; whatever else there is to say goes to stderr.
 */
async function main(): Promise<void> {
  const settings = settingsFrom(process.env);
  const server = einvoiceMcpServer(createClient(settings), originOf(settings));
  await server.connect(new StdioServerTransport());
}

main().catch((error: unknown) => {
  process.stderr.write(
    `einvoice MCP server: ${error instanceof SettingsError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = error instanceof SettingsError ? 2 : 1;
});
