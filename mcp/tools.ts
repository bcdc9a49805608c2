import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z, type ZodObject } from 'zod';

import {
  documentCompanyQuery,
  documentListQuery,
  documentParams,
  inboxQuery,
  lookupParams,
  pdfQuery,
} from '../api/contract/queries';
import { documentInputSchema } from '../domain/documents/input';
import type { EinvoiceClient, JsonBody, Query } from '../sdk/src';
import { answerResult } from './results';

/**
 * The tools an agent gets. Each one's arguments are described by the API's own
 * zod schema of that request (imported, never restated), and are passed to the
 * API as the agent wrote them: the API parses them with that schema and
 * answers every problem in its error envelope, with the request id, which is
 * what the agent needs to correct them. So the casts below to the SDK's types
 * assert nothing the API does not check.
 */

export interface EinvoiceTool {
  name: string;
  title: string;
  description: string;
  input: ZodObject;
  annotations: ToolAnnotations;
  run: (client: EinvoiceClient, args: Record<string, unknown>) => Promise<CallToolResult>;
}

const READ_ONLY: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };

export const TOOLS: readonly EinvoiceTool[] = [
  {
    name: 'validate_document',
    title: 'Validate an invoice or credit note',
    description:
      'Runs every check of send_document (the JSON document, its conversion to Peppol BIS Billing 3.0 UBL, the official Peppol rules) without sending or storing anything. ' +
      'A document that would be refused comes back as a tool error whose `violations` (JSON path of the field, rule id, message) and `official.errors` say what to fix; a valid one comes back with its UBL and totals. ' +
      "`warnings` (code, message, path) name what sending would accept but looks like a mistake: `vat_rate_unusual` (a rate the seller's country does not use), `duplicate_number` (a number the company already used); ask the user before sending such a document.",
    input: documentInputSchema,
    annotations: READ_ONLY,
    run: async (client, args) => {
      const verdict = await client.documents.validate(args as JsonBody<'validateDocument'>);
      return answerResult(verdict, !verdict.valid);
    },
  },
  {
    name: 'send_document',
    title: 'Send an invoice or credit note',
    description:
      'Sends the document for the company `company_id` (sandbox key: by email; live key: on the Peppol network). The answer is the document id and status `queued`; ' +
      'delivery follows asynchronously: follow it with get_document. Set `idempotency_key` to make a repeated call answer the first document instead of sending twice. ' +
      "The answer's `warnings` (code, message, path) say what was sent although it looks like a mistake (`vat_rate_unusual`, `duplicate_number`): tell the user.",
    input: documentInputSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    run: async (client, args) => answerResult(await client.documents.send(args as JsonBody<'sendDocument'>)),
  },
  {
    name: 'send_ubl',
    title: 'Send a UBL (or CII) invoice or credit note as it is',
    description:
      "Sends a UBL 2.1 Invoice or CreditNote (Peppol BIS Billing 3.0) made elsewhere, for the company `company_id`, which must be its seller (its EndpointID is the company's peppol_id): " +
      'the official Peppol rules judge it first, and a refused one comes back as a tool error listing their fatal findings (`violations`: rule id, XPath, message). ' +
      'It is sent exactly as given; follow it with get_document. A UN/CEFACT CII CrossIndustryInvoice (EN 16931) is taken too: judged by the CII rules, then sent as the UBL written from it. ' +
      '`idempotency_key` as for send_document.',
    input: documentCompanyQuery.extend({
      ubl: z.string().min(1).describe('The UBL (or CII) document as XML text'),
      idempotency_key: documentInputSchema.shape.idempotency_key,
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    run: async (client, args) =>
      answerResult(
        await client.documents.sendUbl(args.ubl as string, {
          companyId: args.company_id as string,
          ...(typeof args.idempotency_key === 'string' && { idempotencyKey: args.idempotency_key }),
        }),
      ),
  },
  {
    name: 'get_document',
    title: 'Get a document and its status',
    description:
      'A document of the company: its `status` (queued, sending, delivered or failed; received for a received one), `error_message` when it failed, totals, parties, attachments; for a received one, its content.',
    input: documentParams.extend(documentCompanyQuery.shape),
    annotations: READ_ONLY,
    run: async (client, args) => answerResult(await client.documents.get(args.id as string, args.company_id as string)),
  },
  {
    name: 'get_document_pdf',
    title: 'Get a document as a PDF to show a person',
    description:
      'Any document, sent or received, rendered as a PDF a person reads (every business term, EN 16931 names), as an embedded resource (application/pdf) to hand to the user; ' +
      '`lang` `en` (default), `de`, `fr` or `nl` for the labels, numbers and dates. To read its content yourself, get_document is the better tool.',
    input: documentParams.extend(pdfQuery.shape),
    annotations: READ_ONLY,
    run: async (client, args) => {
      const id = args.id as string;
      const query = {
        ...(args.lang !== undefined && { lang: args.lang }),
        ...(args.company_id !== undefined && { company_id: args.company_id }),
      } as Query<'getDocumentPdf'>;
      const pdf = await client.documents.pdf(id, query);
      return {
        content: [
          {
            type: 'resource',
            resource: {
              uri: `einvoice://documents/${id}.pdf`,
              mimeType: 'application/pdf',
              blob: Buffer.from(pdf).toString('base64'),
            },
          },
        ],
      };
    },
  },
  {
    name: 'get_document_xml',
    title: 'Get a document as UBL or CII',
    description:
      'Any document, sent or received, as XML in the syntax asked for: `ubl` (Peppol BIS Billing 3.0, as it was sent or received) or `cii` (UN/CEFACT CII, EN 16931: as posted when it came as CII, ' +
      'else written from its UBL with the amounts it states), answered as an embedded text resource (application/xml).',
    input: documentParams.extend({
      syntax: z.enum(['ubl', 'cii']).default('ubl').describe('`ubl` (default) or `cii`'),
    }),
    annotations: READ_ONLY,
    run: async (client, args) => {
      const id = args.id as string;
      const syntax = args.syntax === 'cii' ? 'cii' : 'ubl';
      const xml = syntax === 'cii' ? await client.documents.cii(id) : await client.documents.ubl(id);
      return {
        content: [
          {
            type: 'resource',
            resource: { uri: `einvoice://documents/${id}.${syntax}.xml`, mimeType: 'application/xml', text: xml },
          },
        ],
      };
    },
  },
  {
    name: 'list_documents',
    title: 'List documents',
    description:
      "One page of the documents of a company (`company_id`) or of every company of the workspace, newest first, optionally by `status`, `direction`, `acknowledged`, issue dates (`issued_from`, `issued_to`) or `q` (part of the number or of the other party's name); when `has_more` is true, pass `next_cursor` as `cursor` for the next page.",
    input: documentListQuery,
    annotations: READ_ONLY,
    run: async (client, args) => answerResult(await client.documents.page(args)),
  },
  {
    name: 'lookup_participant',
    title: 'Look a Peppol participant up',
    description:
      'Where a Peppol participant id (`scheme:id`, e.g. 0208:0123456749) is registered (SML), what its SMP says it receives, and `can_receive`: whether an invoice and a credit note can be sent to it now. ' +
      'Not registered: a tool error with code `participant_not_found`.',
    input: lookupParams,
    annotations: { readOnlyHint: true, openWorldHint: true },
    run: async (client, args) => answerResult(await client.lookup(args.peppol_id as string)),
  },
  {
    name: 'read_inbox',
    title: 'Read the inbox',
    description:
      'One page of the documents the company received, newest first; `acknowledged: "false"` lists only those not yet acknowledged. ' +
      'Each entry is a summary: get_document with its id gives the whole document. Paging as list_documents.',
    input: inboxQuery,
    annotations: READ_ONLY,
    run: async (client, args) => answerResult(await client.inbox.page(args as Query<'listInbox'>)),
  },
];
