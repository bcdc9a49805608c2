import type { Client } from 'openapi-fetch';

import { unwrap } from '../call';
import type { JsonBody, ListQuery, Query } from '../operation-types';
import { paginate } from '../pagination';
import type { paths } from '../schema';

export interface SendOptions {
  /** Makes a repeat answer the first document instead of sending again; default the body's `idempotency_key`, else a fresh one. */
  idempotencyKey?: string;
}

/**
 * The header the service compares with the body's `idempotency_key` (two
 * different keys are refused): the caller's, else the body's own, so a
 * document carrying its key is sent, and retried, under that key.
 */
function keyed(options: SendOptions, body: JsonBody<'sendDocument'>) {
  const key = options.idempotencyKey ?? body.idempotency_key;
  return key ? { 'Idempotency-Key': key } : {};
}

export function documents(api: Client<paths>) {
  const page = (query: Query<'listDocuments'>) => unwrap(api.GET('/v1/documents', { params: { query } }));
  return {
    /** Accepts the document for delivery (202); it is delivered asynchronously. */
    send: (body: JsonBody<'sendDocument'>, options: SendOptions = {}) => unwrap(api.POST('/v1/documents', { body, headers: keyed(options, body) })),
    /** Up to 100 documents, each accepted or refused on its own (entries carry their `idempotency_key`). */
    sendBatch: (body: JsonBody<'sendDocumentBatch'>) => unwrap(api.POST('/v1/documents/batch', { body })),
    /** Runs every check of sending without sending. */
    validate: (body: JsonBody<'validateDocument'>) => unwrap(api.POST('/v1/documents/validate', { body })),
    get: (id: string, companyId: string) => unwrap(api.GET('/v1/documents/{id}', { params: { path: { id }, query: { company_id: companyId } } })),
    /** Every document of the company matching the filters, page after page. */
    list: (query: ListQuery<'listDocuments'>) => paginate((cursor) => page({ ...query, ...(cursor ? { cursor } : {}) })),
    /** One page as the API answers it, for a caller that keeps `next_cursor` itself (e.g. between requests). */
    page,
    /** The document's events, oldest first. */
    history: (id: string) => unwrap(api.GET('/v1/documents/{id}/history', { params: { path: { id } } })),
    /** The UBL exactly as sent (or received), as text. */
    ubl: (id: string) => unwrap(api.GET('/v1/documents/{id}/ubl', { params: { path: { id } }, parseAs: 'text' })),
  };
}
