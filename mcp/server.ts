import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';

import packageJson from '../package.json';
import type { EinvoiceClient } from '../sdk/src';
import { toolInputSchema } from './input-schema';
import { failureResult } from './results';
import { TOOLS } from './tools';

const INSTRUCTIONS =
  'Sends Peppol BIS Billing 3.0 invoices and credit notes for the companies of the account whose API key this server holds. ' +
  'Every document tool takes the company id (`company_id`, com_…). Check a document with validate_document before send_document; ' +
  'sending is asynchronous: read get_document until its status is delivered or failed. Errors carry the API\u2019s code, the field at fault (`param`, `details`) and a request id.';

/**
 * The MCP server over one API client. It uses the protocol's lower-level
 * `Server` (which the MCP SDK keeps for such uses) rather than `McpServer`,
 * which would parse the arguments itself and refuse them in its own words:
 * here the API judges them (see tools.ts), and the schemas listed are the
 * API's own (see input-schema.ts).
 */
export function einvoiceMcpServer(client: EinvoiceClient, baseUrl: string): Server {
  const server = new Server(
    { name: 'einvoice', title: 'E-invoice delivery', version: packageJson.version },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  const listed: Tool[] = TOOLS.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: toolInputSchema(tool.input),
    annotations: tool.annotations,
  }));

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = TOOLS.find((candidate) => candidate.name === request.params.name);
    if (!tool)
      throw new McpError(
        ErrorCode.InvalidParams,
        `No tool ${request.params.name}; the tools are ${TOOLS.map((known) => known.name).join(', ')}.`,
      );
    try {
      return await tool.run(client, request.params.arguments ?? {});
    } catch (error) {
      return failureResult(error, baseUrl);
    }
  });
  return server;
}
