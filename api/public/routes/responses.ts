import {
  giveInvoiceResponse,
  responsesOf,
  type ResponseDependencies,
} from '../../../services/replies/invoice-responses';
import { invoiceResponseContent, invoiceResponseRequestSchema } from '../invoice-response-input';
import { requireDocument, requireDocumentCompany, requireReceivedDocument } from '../access';
import { z } from '../../contract/openapi';
import type { RouteTable } from '../route-table';
import { idParam } from '../../contract/schemas';
import { invoiceResponseSchema, invoiceResponseView } from '../../contract/views/responses';
import { documentParams } from '../../contract/queries';

/**
 * Invoice Responses (Peppol BIS Invoice Response 3) about a document: our
 * company answers a received invoice or credit note, and reads every
 * response about a document, given or received.
 */

const companyQuery = z.object({ company_id: idParam('company', 'com_0mhx3k2a1bQ8sV7yT2nR4kLp') }).strict();

export function responseRoutes(routes: RouteTable, deps: ResponseDependencies): void {
  respondToDocumentRoute(routes, deps);
  listDocumentResponsesRoute(routes, deps);
}

function respondToDocumentRoute(routes: RouteTable, deps: ResponseDependencies): void {
  const { store } = deps;
  routes.add({
    method: 'post',
    path: '/v1/documents/{id}/responses',
    operationId: 'respondToDocument',
    summary: 'Answer a received invoice or credit note with a Peppol Invoice Response',
    description:
      'Our company, as the buyer, tells the seller what it did with the document: the service writes the UBL ApplicationResponse (BIS Invoice Response 3), ' +
      "validates it with the official rules and sends it by AS4 to the seller's participant id (workflow `response-<id>`; events `document.response_sent` / `document.response_failed`). " +
      'A document received by Peppol needs a seller registered for Invoice Responses: it is looked up first (422 `sender_cannot_receive_responses` saying what was looked up; ' +
      "a DNS or SMP that does not answer is 502 `lookup_dns_failed` / `lookup_smp_failed`, retry later). A sandbox-received document's response completes without a network. " +
      "A code the document's earlier responses forbid is 409 `response_not_allowed` naming the OP-BR111 rule. Delivery `status` of the document does not change.",
    tags: ['Inbox'],
    limitedKeys: true,
    params: documentParams,
    query: companyQuery,
    body: invoiceResponseRequestSchema,
    responses: { 202: { description: 'Queued; being validated and sent', schema: invoiceResponseSchema } },
    errors: [
      'not_company_member',
      'document_not_found',
      'not_received_document',
      'response_not_allowed',
      'sender_cannot_receive_responses',
      'lookup_dns_failed',
      'lookup_smp_failed',
    ],
    handler: async ({ auth, params, query, body }) => {
      const company = await requireDocumentCompany(store, auth, query.company_id);
      const document = requireReceivedDocument(
        await requireDocument(store, auth, params.id, query.company_id),
        'answered with an Invoice Response',
      );
      const response = await giveInvoiceResponse(deps, document, company, invoiceResponseContent(body));
      return { status: 202, body: invoiceResponseView(response) };
    },
  });
}

function listDocumentResponsesRoute(routes: RouteTable, deps: ResponseDependencies): void {
  const { store } = deps;
  routes.add({
    method: 'get',
    path: '/v1/documents/{id}/responses',
    operationId: 'listDocumentResponses',
    summary: 'Every Invoice Response about a document, given or received, oldest first',
    tags: ['Inbox'],
    limitedKeys: true,
    params: documentParams,
    query: companyQuery,
    responses: {
      200: {
        description: 'The responses',
        schema: z.object({ data: z.array(invoiceResponseSchema) }).openapi('InvoiceResponseList'),
      },
    },
    errors: ['not_company_member', 'document_not_found'],
    handler: async ({ auth, params, query }) => {
      await requireDocumentCompany(store, auth, query.company_id);
      const document = await requireDocument(store, auth, params.id, query.company_id);
      return { status: 200, body: { data: (await responsesOf(store, document._id)).map(invoiceResponseView) } };
    },
  });
}
