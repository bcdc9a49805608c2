import type { Client } from '@temporalio/client';

import { idPattern } from '../../../domain/ids';
import { RESPONSE_CODES } from '../../../domain/peppol/invoice-response';
import type { Logger } from '../../../platform/logger';
import { listUnmatchedResponses, simulateBuyerResponse } from '../../../services/receiving/sandbox-response';
import type { Store } from '../../../store';
import { requireDocument, requireDocumentCompany } from '../access';
import { invoiceResponseContent, invoiceResponseRequestSchema } from '../invoice-response-input';
import { ApiError } from '../../http/errors';
import { z } from '../../contract/openapi';
import { decodeCursor, pageSchema, pageView } from '../../http/paging';
import type { RouteTable } from '../route-table';
import { cursorParam, idParam } from '../../contract/schemas';
import { statusActionSchema, statusReasonSchema } from '../../contract/views/replies';
import { requireSandbox } from './inbox';

/**
 * Replies received about sent documents, beyond the document view: the
 * sandbox's simulated buyer response, and the Invoice Responses that matched
 * no sent document (kept, never dropped).
 */

export interface ReplyRouteDependencies {
  store: Store;
  temporal: Client;
  logger: Logger;
}

const companyQuery = idParam('company', 'com_0mhx3k2a1bQ8sV7yT2nR4kLp');

const unmatchedResponseSchema = z
  .object({
    id: z.string(),
    company_id: z.string(),
    code: z.enum(RESPONSE_CODES),
    reasons: z.array(statusReasonSchema),
    actions: z.array(statusActionSchema),
    note: z.string().nullable(),
    sender_id: z.string().nullable().openapi({ description: 'Who sent it (the buyer, by its Peppol participant id)' }),
    referenced_number: z.string().openapi({
      description: 'The invoice or credit note number it names, which no sent document of the company has',
    }),
    referenced_type_code: z.string().nullable().openapi({ description: '380 invoice, 381 credit note' }),
    as4_message_id: z.string().nullable(),
    received_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('UnmatchedInvoiceResponse');

export function replyRoutes(routes: RouteTable, deps: ReplyRouteDependencies): void {
  sandboxDocumentResponseRoute(routes, deps);
  listUnmatchedResponsesRoute(routes, deps);
}

function sandboxDocumentResponseRoute(routes: RouteTable, deps: ReplyRouteDependencies): void {
  const { store } = deps;
  routes.add({
    method: 'post',
    path: '/v1/sandbox/documents/{id}/response',
    operationId: 'sandboxDocumentResponse',
    summary: "Simulate the buyer's Invoice Response to a sent sandbox document",
    description:
      'Test keys only (403 `sandbox_only` with a live key). Writes the Peppol BIS Invoice Response 3 the buyer would send about this sent document ' +
      '(`code`, `reasons`, `actions`, `note`) and takes it in through the same intake and receive workflow as one arriving by AS4: a moment later the ' +
      "document's `response` shows it, its history has a `response_received` step and `document.response_received` goes to the events feed and webhooks. " +
      'Its delivery `status` is not changed.',
    tags: ['Inbox'],
    params: z.object({ id: idParam('document', 'doc_0mhx3k2a1bQ8sV7yT2nR4kLp') }),
    query: z.object({ company_id: companyQuery }).strict(),
    body: invoiceResponseRequestSchema,
    responses: {
      202: {
        description: 'Taken in; being filed on the document',
        schema: z
          .object({
            id: z.string().openapi({ description: 'The received response' }),
            document_id: z.string(),
            status: z.literal('receiving'),
          })
          .openapi('SandboxResponseAccepted'),
      },
    },
    errors: ['sandbox_only', 'not_company_member', 'document_not_found', 'not_sent_document'],
    handler: async ({ auth, params, query, body }) => {
      requireSandbox(
        auth,
        'POST /v1/sandbox/documents/{id}/response takes test keys only; live responses arrive from the buyer on the Peppol network.',
      );
      const company = await requireDocumentCompany(store, auth, query.company_id);
      const document = await requireDocument(store, auth, params.id, query.company_id);
      if (document.direction === 'received')
        throw new ApiError(
          'not_sent_document',
          `Document ${document._id} was received; a buyer's response answers a document the company sent.`,
          { param: 'id' },
        );
      const intake = await simulateBuyerResponse(deps, document, company, invoiceResponseContent(body));
      return { status: 202, body: { id: intake.documentId, document_id: document._id, status: 'receiving' as const } };
    },
  });
}

function listUnmatchedResponsesRoute(routes: RouteTable, deps: ReplyRouteDependencies): void {
  const { store } = deps;
  routes.add({
    method: 'get',
    path: '/v1/unmatched-responses',
    operationId: 'listUnmatchedResponses',
    summary: 'Invoice Responses received for a company that matched none of its sent documents, newest first',
    description:
      'A response is matched to the sent document whose number, type (380 invoice, 381 credit note) and buyer it names; one that matches none is kept here ' +
      '(and announced as `document.response_received` with `document_id: null`), never dropped.',
    tags: ['Inbox'],
    limitedKeys: true,
    query: z
      .object({
        company_id: companyQuery,
        limit: z.coerce.number().int().min(1).max(100).default(20).openapi({ description: '1 to 100, default 20' }),
        cursor: cursorParam,
      })
      .strict(),
    responses: {
      200: {
        description: 'A page of unmatched responses',
        schema: pageSchema(unmatchedResponseSchema, 'UnmatchedResponseList'),
      },
    },
    errors: ['not_company_member'],
    handler: async ({ auth, query }) => {
      await requireDocumentCompany(store, auth, query.company_id);
      const page = await listUnmatchedResponses(store, {
        companyId: query.company_id,
        environment: auth.environment,
        limit: query.limit,
        before: decodeCursor(query.cursor, idPattern('document')),
      });
      return {
        status: 200,
        body: pageView(page, (row) => ({
          id: row._id,
          company_id: row.company_id,
          code: row.code,
          reasons: row.reasons.map((reason) => ({ code: reason.code, text: reason.text ?? null })),
          actions: row.actions.map((action) => ({ code: action.code, text: action.text ?? null })),
          note: row.note ?? null,
          sender_id: row.sender_id ?? null,
          referenced_number: row.referenced_number,
          referenced_type_code: row.referenced_type_code ?? null,
          as4_message_id: row.as4_message_id ?? null,
          received_at: row.created_at.toISOString(),
        })),
      };
    },
  });
}
