import type { Client } from 'openapi-fetch';

import { unwrap } from '../call';
import { OutcomeTimeoutError } from '../errors';
import type { JsonBody, ListQuery, Query } from '../operation-types';
import { paginate } from '../pagination';
import { wait } from '../retry';
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

export interface UblSendOptions extends SendOptions {
  /** The sending company: the UBL's seller (its EndpointID) must be this company's `peppol_id`. */
  companyId: string;
}

export interface OutcomeOptions {
  /** Between two reads; default 1 s. */
  intervalMs?: number;
  /** How long to wait in all before `OutcomeTimeoutError`; default 2 minutes. */
  timeoutMs?: number;
  /** Ends the wait at once, rejecting with the signal's reason. */
  signal?: AbortSignal;
}

/** A document still on its way: `queued`, or `sending` (which includes waiting between attempts). */
const PENDING = new Set(['queued', 'sending']);

export function documents(api: Client<paths>) {
  const page = (query: Query<'listDocuments'>) => unwrap(api.GET('/v1/documents', { params: { query } }));
  const get = (id: string, companyId: string) =>
    unwrap(api.GET('/v1/documents/{id}', { params: { path: { id }, query: { company_id: companyId } } }));
  return {
    /** Accepts the document for delivery (202); it is delivered asynchronously. */
    send: (body: JsonBody<'sendDocument'>, options: SendOptions = {}) =>
      unwrap(api.POST('/v1/documents', { body, headers: keyed(options, body) })),
    /**
     * Accepts a UBL 2.1 Invoice or CreditNote the caller made (202), checked by the official Peppol rules first; it
     * is sent, and `ubl()` answers it, as given (its text in UTF-8, a byte order mark kept). A UN/CEFACT CII
     * CrossIndustryInvoice is taken too: checked by CEN's CII rules, sent as the UBL written from it, and `cii()`
     * answers it as given.
     */
    sendUbl: (ubl: string, options: UblSendOptions) =>
      unwrap(
        api.POST('/v1/documents', {
          params: { query: { company_id: options.companyId } },
          body: ubl,
          bodySerializer: (xml) => xml,
          headers: {
            'Content-Type': 'application/xml',
            ...(options.idempotencyKey && { 'Idempotency-Key': options.idempotencyKey }),
          },
        }),
      ),
    /** Up to 100 documents, each accepted or refused on its own (entries carry their `idempotency_key`; a UBL one is `{company_id, ubl: base64, idempotency_key}`). */
    sendBatch: (body: JsonBody<'sendDocumentBatch'>) => unwrap(api.POST('/v1/documents/batch', { body })),
    /** Runs every check of sending without sending. */
    validate: (body: JsonBody<'validateDocument'>) => unwrap(api.POST('/v1/documents/validate', { body })),
    get,
    /**
     * Reads the document until it is `delivered` or `failed` and answers it
     * then: for scripts and tests. A service should rather listen to the
     * `document.delivered` and `document.failed` webhooks than poll.
     */
    outcome: async (id: string, companyId: string, options: OutcomeOptions = {}) => {
      const { intervalMs = 1_000, timeoutMs = 120_000 } = options;
      const deadline = Date.now() + timeoutMs;
      const signal = options.signal ?? new AbortController().signal;
      for (;;) {
        const document = await get(id, companyId);
        if (!PENDING.has(document.status)) return document;
        if (Date.now() + intervalMs > deadline) throw new OutcomeTimeoutError(id, document.status, timeoutMs);
        await wait(intervalMs, signal);
      }
    },
    /** Every document of the company matching the filters, page after page. */
    list: (query: ListQuery<'listDocuments'>) =>
      paginate((cursor) => page({ ...query, ...(cursor ? { cursor } : {}) })),
    /** One page as the API answers it, for a caller that keeps `next_cursor` itself (e.g. between requests). */
    page,
    /** The document's events, oldest first. */
    history: (id: string) => unwrap(api.GET('/v1/documents/{id}/history', { params: { path: { id } } })),
    /** The UBL exactly as sent (or received), as text. */
    ubl: (id: string) => unwrap(api.GET('/v1/documents/{id}/ubl', { params: { path: { id } }, parseAs: 'text' })),
    /** The document as UN/CEFACT CII (EN 16931), as text: as posted for one posted as CII, else written from its UBL with the amounts it states. */
    cii: (id: string) => unwrap(api.GET('/v1/documents/{id}/cii', { params: { path: { id } }, parseAs: 'text' })),
    /** The document as a PDF a person reads (sent or received); `lang` `en` (default), `de`, `fr` or `nl`. */
    pdf: async (id: string, query: Query<'getDocumentPdf'> = {}) =>
      new Uint8Array(
        await unwrap(api.GET('/v1/documents/{id}/pdf', { params: { path: { id }, query }, parseAs: 'arrayBuffer' })),
      ),
    /**
     * The document as a Factur-X (ZUGFeRD 2, profile EN 16931): its PDF as a PDF/A-3 with the invoice as CII
     * embedded as `factur-x.xml`; `lang` as for `pdf()`.
     */
    facturx: async (id: string, query: Query<'getDocumentFacturX'> = {}) =>
      new Uint8Array(
        await unwrap(
          api.GET('/v1/documents/{id}/facturx', { params: { path: { id }, query }, parseAs: 'arrayBuffer' }),
        ),
      ),
    /** The document as an HTML page a person reads; `lang` `en` (default), `de`, `fr` or `nl`. */
    html: (id: string, query: Query<'getDocumentHtml'> = {}) =>
      unwrap(api.GET('/v1/documents/{id}/html', { params: { path: { id }, query }, parseAs: 'text' })),
  };
}
