import { randomUUID } from 'node:crypto';

import type { Client } from '@temporalio/client';

import { idPattern } from '../../../domain/ids';
import type { Logger } from '../../../platform/logger';
import { listCompanies } from '../../../services/companies';
import { listInbox, markAcknowledged } from '../../../services/receiving/inbox';
import { takeInbound } from '../../../services/receiving/intake';
import type { Store } from '../../../store';
import { requireDocument, requireDocumentCompany, requireReceivedDocument } from '../access';
import type { AuthContext } from '../authentication';
import { ApiError } from '../../http/errors';
import type { CpuPool } from '../cpu-pool';
import { z } from '../../contract/openapi';
import { decodeCursor, pageSchema, pageView } from '../../http/paging';
import type { RouteTable } from '../route-table';
import { requireMeasurableUbl } from '../ubl-body';
import { documentSummary, documentSummarySchema, documentView, documentSchema } from '../../contract/views/documents';
import { receivedContentOf } from './received-content';
import { companyQuery, inboxQuery } from '../../contract/queries';
import { idParam } from '../../contract/schemas';

export interface InboxRouteDependencies {
  store: Store;
  temporal: Client;
  logger: Logger;
  cpu: CpuPool;
}

/** Largest UBL the sandbox inbound endpoint takes: a received document with a few attachments. */
const SANDBOX_INBOUND_MAX_BYTES = 10 * 1024 * 1024;

/** The sandbox's simulations take test keys only: 403 `sandbox_only`, saying where the live thing comes from. */
export function requireSandbox(auth: AuthContext, refusal: string): void {
  if (auth.environment !== 'sandbox') throw new ApiError('sandbox_only', refusal);
}

// Acknowledging (POST) and undoing it (DELETE): one route each way, the same checks.
const ACKNOWLEDGING = [
  {
    method: 'post',
    operationId: 'acknowledgeDocument',
    summary: 'Mark a received document processed',
    description:
      'It then leaves `GET /v1/inbox?acknowledged=false`. Acknowledging again changes nothing (200 with the same `acknowledged_at`).',
    answered: 'The document, acknowledged',
    what: 'acknowledged',
    read: true,
  },
  {
    method: 'delete',
    operationId: 'unacknowledgeDocument',
    summary: 'Mark a received document not processed again (unread)',
    description:
      'It is back in `GET /v1/inbox?acknowledged=false` (the web app\u2019s "Mark as unread"), `acknowledged_at` null again. Undoing again changes nothing.',
    answered: 'The document, not acknowledged',
    what: 'marked unread',
    read: false,
  },
] as const;

function acknowledgementRoutes(routes: RouteTable, store: Store): void {
  for (const { method, operationId, summary, description, answered, what, read } of ACKNOWLEDGING) {
    routes.add({
      method,
      path: '/v1/documents/{id}/acknowledge',
      operationId,
      summary,
      description,
      tags: ['Inbox'],
      limitedKeys: true,
      params: z.object({ id: idParam('document', 'doc_0mhx3k2a1bQ8sV7yT2nR4kLp') }),
      query: z.object({ company_id: companyQuery }).strict(),
      responses: { 200: { description: answered, schema: documentSchema } },
      errors: ['not_company_member', 'document_not_found', 'not_received_document'],
      handler: async ({ auth, params, query, req }) => {
        await requireDocumentCompany(store, auth, query.company_id);
        const document = requireReceivedDocument(await requireDocument(store, auth, params.id, query.company_id), what);
        const marked = await markAcknowledged(store, document, read);
        return { status: 200, body: documentView(marked, [], req.origin, await receivedContentOf(store, marked)) };
      },
    });
  }
}

export function inboxRoutes(routes: RouteTable, deps: InboxRouteDependencies): void {
  listInboxRoute(routes, deps);
  acknowledgementRoutes(routes, deps.store);
  sandboxInboundRoute(routes, deps);
}

function listInboxRoute(routes: RouteTable, deps: InboxRouteDependencies): void {
  const { store } = deps;
  routes.add({
    method: 'get',
    path: '/v1/inbox',
    operationId: 'listInbox',
    summary: 'Documents received for a company (of this key\u2019s environment), newest first',
    description:
      'Received documents only (`direction: "received"`), on the same paging as `GET /v1/documents`. `acknowledged=false` lists those not yet ' +
      'acknowledged (`POST /v1/documents/{id}/acknowledge`): a pull queue for integrations that do not take webhooks.',
    tags: ['Inbox'],
    limitedKeys: true,
    query: inboxQuery,
    responses: {
      200: { description: 'A page of received documents', schema: pageSchema(documentSummarySchema, 'InboxList') },
    },
    errors: ['not_company_member'],
    handler: async ({ auth, query }) => {
      await requireDocumentCompany(store, auth, query.company_id);
      const page = await listInbox(store, {
        companyId: query.company_id,
        environment: auth.environment,
        acknowledged: query.acknowledged === undefined ? undefined : query.acknowledged === 'true',
        createdAfter: query.created_after ? new Date(query.created_after) : undefined,
        limit: query.limit,
        before: decodeCursor(query.cursor, idPattern('document')),
      });
      return { status: 200, body: pageView(page, documentSummary) };
    },
  });
}

const sandboxInboundAcceptedSchema = z
  .object({
    id: z.string(),
    direction: z.literal('received'),
    company_id: z.string(),
    status: z.literal('receiving'),
  })
  .openapi('SandboxInboundAccepted');

function sandboxInboundRoute(routes: RouteTable, deps: InboxRouteDependencies): void {
  routes.add({
    method: 'post',
    path: '/v1/sandbox/inbound',
    operationId: 'sandboxInbound',
    summary: 'Receive a UBL or CII document in the sandbox, as if it had arrived on Peppol',
    description:
      'Test keys only (403 `sandbox_only` with a live key). Send a UBL 2.1 `Invoice` or `CreditNote`, or a UN/CEFACT CII `CrossIndustryInvoice`, as `application/xml`; it is addressed by its ' +
      "buyer's electronic address (UBL `cbc:EndpointID`, CII `ram:URIUniversalCommunication/ram:URIID`, with its schemeID) to one of this workspace's companies with that `peppol_id` (otherwise 422 `recipient_not_found`, naming the id found) " +
      'and goes through the same receive workflow as a document arriving by AS4: official validation (the CII rules for CII), the JSON view, the inbox, a `document.received` event and webhooks. ' +
      'A CII document is kept as it came (`/cii`) beside the UBL written from it (`/ubl`, the renderings). ' +
      'The answer comes as soon as it is stored; the document (`GET /v1/documents/{id}`, the inbox) appears a moment later, once validated and filed.',
    tags: ['Inbox'],
    xmlBody: z.string().openapi({
      description: 'The UBL or CII document',
      example: '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">…</Invoice>',
    }),
    bodyLimit: SANDBOX_INBOUND_MAX_BYTES,
    responses: {
      202: {
        description: 'Stored; being validated and filed',
        schema: sandboxInboundAcceptedSchema,
      },
    },
    errors: [
      'sandbox_only',
      'invalid_xml',
      'xml_too_complex',
      'ubl_not_routable',
      'recipient_not_found',
      'server_busy',
    ],
    handler: async ({ auth, body }) => ({ status: 202, body: await receiveInSandbox(deps, auth, body as Buffer) }),
  });
}

/** A sandbox document taken in as if it had come by AS4: stored now, validated and filed by its receive workflow. */
async function receiveInSandbox(
  deps: InboxRouteDependencies,
  auth: AuthContext,
  xml: Buffer,
): Promise<z.output<typeof sandboxInboundAcceptedSchema>> {
  requireSandbox(auth, 'POST /v1/sandbox/inbound takes test keys only; live documents arrive on the Peppol network.');
  await requireMeasurableUbl(deps.cpu, xml);
  // Read on a worker thread, as the bounds were: a large document never holds the event loop.
  const routed = await deps.cpu.run('routeUbl', { xml });
  if (!routed.ok) throw new ApiError('ubl_not_routable', `The document cannot be addressed: ${routed.problem}.`);
  const { routing } = routed;
  const company = await addressedCompany(deps.store, auth, routing.receiver);
  const intake = await takeInbound(
    deps,
    {
      source: 'sandbox',
      messageId: `${randomUUID()}@sandbox.einvoice`,
      senderId: routing.sender,
      receiverId: routing.receiver,
      documentTypeId: `${routing.documentType.scheme}::${routing.documentType.value}`,
      processId: `${routing.process.scheme}::${routing.process.value}`,
      countryC1: routing.countryC1,
      accessPoint: null,
      accessPointCertificate: null,
      payload: xml,
      receivedAt: new Date(),
    },
    { companyId: company._id, workspaceId: company.workspace_id, environment: 'sandbox' },
  );
  return { id: intake.documentId, direction: 'received', company_id: company._id, status: 'receiving' };
}

/** The company of this workspace (visible to the key) whose peppol_id the buyer's address is; otherwise 422 naming it. */
async function addressedCompany(store: Store, auth: AuthContext, receiver: string) {
  const companies = await listCompanies(store, auth.workspaceId, auth.companyId);
  const company = companies.find((candidate) => candidate.peppol_id?.toLowerCase() === receiver.toLowerCase());
  if (company) return company;
  throw new ApiError(
    'recipient_not_found',
    `The buyer's EndpointID is ${receiver}, which is the peppol_id of none of this workspace's companies${auth.companyId ? ' visible to this key' : ''}.`,
    { details: { receiver_id: receiver } },
  );
}
