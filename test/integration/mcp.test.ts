import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import { documentListQuery, inboxQuery } from '../../api/contract/queries';
import { documentInputSchema } from '../../domain/documents/input';
import { createClient, type EinvoiceClient, type JsonBody } from '../../sdk/src';
import { belgianBuyerCompany, belgianSeller, validFixtures } from '../fixtures/documents';
import { signUp } from '../support/accounts';
import { liveSender } from '../support/documents';
import { clientMadeUbl } from '../support/official-examples';
import { ublTo } from '../support/receiving';
import { until } from '../support/until';
import { pdfText } from '../support/rendering';
import { sharedStack } from '../support/test-stack';
import { isAlive } from '../../stack/process-alive';

/**
 * The MCP server (mcp/) as an agent's client runs it: a child process on
 * stdio, driven by the MCP SDK's own Client against the running embedded
 * stack. The tools list the API's fields; a refused document comes back as a
 * tool error an agent can act on; a document is sent, delivered and listed; a
 * participant is looked up; the inbox is read.
 */

const ROOT = path.resolve(__dirname, '../..');
/** The server as `npx tsx mcp/main.ts` starts it, without tsx's own parent process in between. */
const SERVER = { command: process.execPath, args: ['--import', 'tsx', path.join(ROOT, 'mcp/main.ts')], cwd: ROOT };

const standard = validFixtures.find((fixture) => fixture.name === 'standard rate S, one line')!.body;
const buyerPeppolId = (standard.to as { peppol_id: string }).peppol_id;

/** A tool's answer: the API's JSON, as the text content carries it. */
const jsonOf = (result: CallToolResult) => JSON.parse((result.content[0] as { text: string }).text);

describe('the MCP server over stdio against the running API', () => {
  let api: EinvoiceClient;
  let companyId: string;
  let transport: StdioClientTransport;
  let mcp: Client;
  const protocolErrors: Error[] = [];
  let stderr = '';
  const call = (name: string, args: Record<string, unknown>) =>
    mcp.callTool({ name, arguments: args }) as Promise<CallToolResult>;

  beforeAll(async () => {
    const account = await signUp('mcp');
    api = createClient({ apiKey: account.key, baseUrl: sharedStack().apiUrl });
    companyId = (
      await api.companies.create({
        ...belgianSeller,
        address: { ...belgianSeller.address },
      } as JsonBody<'createCompany'>)
    ).id;
    transport = new StdioClientTransport({
      ...SERVER,
      env: { ...getDefaultEnvironment(), EINVOICE_API_KEY: account.key, EINVOICE_BASE_URL: sharedStack().apiUrl },
      stderr: 'pipe',
    });
    transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    mcp = new Client({ name: 'einvoice-mcp-test', version: '1.0.0' });
    mcp.onerror = (error) => protocolErrors.push(error);
    await mcp.connect(transport);
  }, 60_000);

  afterAll(async () => {
    const pid = transport.pid!;
    await mcp.close();
    await until(
      'the server process to end',
      () => Promise.resolve(isAlive(pid)),
      (running) => !running,
      10_000,
    );
    // stdout carried only protocol messages (anything else would have been a parse error), and the server said nothing on stderr.
    expect(protocolErrors).toEqual([]);
    expect(stderr).toBe('');
  });

  it('when the tools are listed, then each takes the fields of the API operation it calls', async () => {
    const { tools } = await mcp.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect([...byName.keys()].sort()).toEqual([
      'get_document',
      'get_document_pdf',
      'get_document_xml',
      'list_documents',
      'lookup_participant',
      'read_inbox',
      'send_document',
      'send_ubl',
      'validate_document',
    ]);
    const fields = (name: string) => Object.keys(byName.get(name)!.inputSchema.properties ?? {});
    expect(fields('send_document')).toEqual(Object.keys(documentInputSchema.shape));
    expect(fields('validate_document')).toEqual(Object.keys(documentInputSchema.shape));
    expect(byName.get('send_document')!.inputSchema.required).toEqual(
      expect.arrayContaining(['company_id', 'number', 'issue_date', 'to', 'lines']),
    );
    expect(fields('list_documents')).toEqual(Object.keys(documentListQuery.shape));
    expect(fields('read_inbox')).toEqual(Object.keys(inboxQuery.shape));
    expect(fields('get_document')).toEqual(['id', 'company_id']);
    expect(fields('get_document_pdf')).toEqual(['id', 'lang', 'company_id']);
    expect(fields('get_document_xml')).toEqual(['id', 'syntax']);
    expect(fields('send_ubl')).toEqual(['company_id', 'ubl', 'idempotency_key']);
    expect(byName.get('send_ubl')!.inputSchema.required).toEqual(['company_id', 'ubl']);
    expect(fields('lookup_participant')).toEqual(['peppol_id']);
    expect(byName.get('send_document')!.annotations).toMatchObject({ readOnlyHint: false });
    expect(byName.get('get_document')!.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('when a document is refused, then validating and sending it answer tool errors naming the field, the rule or code, and the request id', async () => {
    const refusable = { ...standard, company_id: companyId, buyer_reference: undefined, order_reference: undefined };
    const verdict = await call('validate_document', refusable);
    expect(verdict.isError).toBe(true);
    expect(jsonOf(verdict)).toMatchObject({
      valid: false,
      violations: [{ path: 'buyer_reference', rule: 'PEPPOL-EN16931-R003' }],
    });

    const refused = await call('send_document', refusable);
    expect(refused.isError).toBe(true);
    expect(jsonOf(refused).error).toMatchObject({
      code: 'document_invalid',
      status: 422,
      details: { violations: [expect.objectContaining({ path: 'buyer_reference', rule: 'PEPPOL-EN16931-R003' })] },
      request_id: expect.any(String),
    });

    const { company_id: _company, ...withoutCompany } = standard;
    const unaddressed = await call('send_document', withoutCompany);
    expect(jsonOf(unaddressed).error).toMatchObject({
      code: 'missing_field',
      param: 'company_id',
      request_id: expect.any(String),
    });
    const unknown = await call('get_document', { id: 'doc_000000000000000000000000', company_id: companyId });
    expect(unknown.isError).toBe(true);
    expect(jsonOf(unknown).error).toMatchObject({ code: 'document_not_found', status: 404 });
  });

  it('when a valid document is sent, then get_document follows it to delivered and list_documents lists it', async () => {
    const document = { ...standard, company_id: companyId, idempotency_key: 'mcp-first' };
    const verdict = await call('validate_document', document);
    expect(verdict.isError).toBeFalsy();
    expect(jsonOf(verdict)).toMatchObject({ valid: true, violations: [] });

    const sent = await call('send_document', document);
    expect(jsonOf(sent)).toMatchObject({ id: expect.stringMatching(/^doc_/), status: 'queued' });
    expect(sent.isError).toBeFalsy();
    const { id } = jsonOf(sent);
    // The same idempotency key answers the first document: an agent's retry sends nothing twice.
    expect(jsonOf(await call('send_document', document)).id).toBe(id);
    // Its number is now taken: the verdict on the same document warns, naming it, for the agent to tell the user.
    expect(jsonOf(await call('validate_document', document))).toMatchObject({
      valid: true,
      warnings: [{ code: 'duplicate_number', path: 'number', message: expect.stringContaining(id) }],
    });

    const read = async () => jsonOf(await call('get_document', { id, company_id: companyId }));
    const delivered = await until(
      'delivery',
      read,
      (current) => current.status === 'delivered' || current.status === 'failed',
      90_000,
    );
    expect(delivered).toMatchObject({ id, status: 'delivered' });

    const page = jsonOf(await call('list_documents', { company_id: companyId, limit: 1 }));
    expect(page).toMatchObject({ data: [{ id, status: 'delivered' }], has_more: false });
    expect(jsonOf(await call('list_documents', { company_id: companyId, status: 'failed' })).data).toEqual([]);

    // The PDF to show the user: an embedded resource whose text names the invoice.
    const pdf = await call('get_document_pdf', { id, lang: 'de' });
    expect(pdf.isError).toBeFalsy();
    const [resource] = pdf.content as { type: string; resource: { uri: string; mimeType: string; blob: string } }[];
    expect(resource).toMatchObject({
      type: 'resource',
      resource: { uri: `einvoice://documents/${id}.pdf`, mimeType: 'application/pdf' },
    });
    expect(await pdfText(Buffer.from(resource!.resource.blob, 'base64'))).toContain(
      `Rechnungsnummer: ${String(standard.number)}`,
    );
  }, 120_000);

  it('when a UBL document made elsewhere is sent, then it is delivered as it was given; one of another seller is a tool error naming both', async () => {
    const xml = clientMadeUbl('peppol-bis/base-example.xml', belgianSeller.peppol_id!, 'mcp-ubl@example.com');
    const sent = await call('send_ubl', { company_id: companyId, ubl: xml, idempotency_key: 'mcp-ubl' });
    expect(sent.isError).toBeFalsy();
    const { id } = jsonOf(sent);
    expect(jsonOf(await call('send_ubl', { company_id: companyId, ubl: xml, idempotency_key: 'mcp-ubl' })).id).toBe(id);
    const read = async () => jsonOf(await call('get_document', { id, company_id: companyId }));
    expect(
      await until('delivery', read, (current) => current.status === 'delivered' || current.status === 'failed', 90_000),
    ).toMatchObject({ status: 'delivered', number: 'Snippet1' });
    expect(await api.documents.ubl(id)).toBe(xml);
    // The same document as CII, for a client that reads that syntax.
    const [cii] = (await call('get_document_xml', { id, syntax: 'cii' })).content as {
      resource: { uri: string; mimeType: string; text: string };
    }[];
    expect(cii!.resource).toMatchObject({ uri: `einvoice://documents/${id}.cii.xml`, mimeType: 'application/xml' });
    expect(cii!.resource.text).toContain('<ram:DuePayableAmount>1656.25</ram:DuePayableAmount>');
    expect(await api.documents.cii(id)).toBe(cii!.resource.text);

    const foreign = await call('send_ubl', {
      company_id: companyId,
      ubl: clientMadeUbl('peppol-bis/base-example.xml', belgianBuyerCompany.peppol_id, 'mcp-ubl@example.com'),
    });
    expect(foreign.isError).toBe(true);
    expect(jsonOf(foreign).error).toMatchObject({
      code: 'seller_mismatch',
      details: { seller_endpoint_id: belgianBuyerCompany.peppol_id, company_peppol_id: belgianSeller.peppol_id },
    });
  }, 120_000);

  it('when a participant is looked up, then the answer says what it can receive', async () => {
    const found = await call('lookup_participant', { peppol_id: buyerPeppolId });
    // One expectation for both, so that a tool error shows its envelope (code, message) when this fails.
    expect({ isError: found.isError ?? false, answer: jsonOf(found) }).toMatchObject({
      isError: false,
      answer: { registered: true, can_receive: { invoice: true, credit_note: true } },
    });
  });

  it('when a document arrives for one of the companies, then read_inbox lists it', async () => {
    const buyer = await api.companies.create(belgianBuyerCompany);
    const unread = async () => jsonOf(await call('read_inbox', { company_id: buyer.id, acknowledged: 'false' }));
    expect(await unread()).toEqual({ data: [], has_more: false, next_cursor: null });

    const arrived = await api.sandbox.receive(ublTo('standard rate S, one line', buyerPeppolId));
    const inbox = await until('the inbox', unread, (page) => page.data.length > 0);
    expect(inbox.data).toEqual([expect.objectContaining({ id: arrived.id, direction: 'received' })]);
  });

  it("when the key is a live one and EINVOICE_LIVE_BASE_URL names the local stack's live host, then the tools act in the live environment; the sandbox URL alone refuses the key", async () => {
    const sender = await liveSender();
    const listLive = async (env: Record<string, string>) => {
      const live = new Client({ name: 'einvoice-mcp-live-test', version: '1.0.0' });
      await live.connect(
        new StdioClientTransport({
          ...SERVER,
          env: { ...getDefaultEnvironment(), EINVOICE_API_KEY: sender.liveKey, ...env },
        }),
      );
      try {
        return (await live.callTool({
          name: 'list_documents',
          arguments: { company_id: sender.companyId },
        })) as CallToolResult;
      } finally {
        await live.close();
      }
    };
    // The local stack serves its live host as localhost, a name Node resolves (live.localhost it does not).
    const liveUrl = sharedStack().apiUrl.replace('127.0.0.1', 'localhost');
    const listed = await listLive({ EINVOICE_BASE_URL: sharedStack().apiUrl, EINVOICE_LIVE_BASE_URL: liveUrl });
    expect({ isError: listed.isError ?? false, answer: jsonOf(listed) }).toEqual({
      isError: false,
      answer: { data: [], has_more: false, next_cursor: null },
    });
    const refused = await listLive({ EINVOICE_BASE_URL: sharedStack().apiUrl });
    expect({ isError: refused.isError, code: jsonOf(refused).error.code }).toEqual({
      isError: true,
      code: 'wrong_environment',
    });
  }, 60_000);

  it('when the key is missing, then the server does not start: exit code 2 and the reason on stderr', async () => {
    const started = promisify(execFile)(SERVER.command, SERVER.args, { cwd: ROOT, env: getDefaultEnvironment() });
    await expect(started).rejects.toMatchObject({
      code: 2,
      stdout: '',
      stderr: expect.stringContaining('EINVOICE_API_KEY is not set'),
    });
  });
});
