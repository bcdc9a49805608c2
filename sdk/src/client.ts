import createFetchClient, { type Client } from 'openapi-fetch';

import { companies } from './resources/companies';
import { documents } from './resources/documents';
import { events } from './resources/events';
import { inbox } from './resources/inbox';
import { lookup, signup } from './resources/public';
import { webhooks } from './resources/webhooks';
import { sandbox } from './resources/sandbox';
import { retryingFetch } from './retry';
import type { paths } from './schema';

export interface ClientOptions {
  /** `ps_test_…` (sandbox host) or `ps_live_…` (live host); absent, only public operations work (signup, lookup). */
  apiKey?: string;
  /** The API's origin, e.g. `https://api.example.com`. */
  baseUrl: string;
  /**
   * The live host's origin, when it is not `baseUrl`: a live key (`ps_live_…`) talks to it, a test key to `baseUrl`,
   * so one configuration serves both. A local run: `http://localhost:3000` (its sandbox is `http://127.0.0.1:3000`).
   */
  liveBaseUrl?: string;
  /** Another fetch (a proxy agent, a test double); default the global one. */
  fetch?: (request: Request) => Promise<Response>;
  /** Attempts after the first on 429, 5xx and network errors; default 2. */
  maxRetries?: number;
  /** The longest wait between attempts (default 30 s); a longer `Retry-After` is answered as an ApiError instead. */
  maxRetryDelayMs?: number;
}

/**
 * Every POST gets an `Idempotency-Key` unless the caller set one: the service
 * then answers a repeat with the first result, which is what lets a POST be
 * retried safely (retry.ts repeats no POST without one).
 */
function withIdempotencyKeys(api: Client<paths>): void {
  api.use({
    onRequest({ request }) {
      if (request.method === 'POST' && !request.headers.has('idempotency-key'))
        request.headers.set('Idempotency-Key', crypto.randomUUID());
      return request;
    },
  });
}

/** The origin the client talks to: the live host's for a live key, when given; else `baseUrl`. */
export function originOf(options: Pick<ClientOptions, 'apiKey' | 'baseUrl' | 'liveBaseUrl'>): string {
  const origin = (options.apiKey?.startsWith('ps_live_') && options.liveBaseUrl) || options.baseUrl;
  return origin.replace(/\/+$/, '');
}

export function createClient(options: ClientOptions) {
  const fetchOnce = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const api = createFetchClient<paths>({
    baseUrl: originOf(options),
    headers: options.apiKey ? { Authorization: `Bearer ${options.apiKey}` } : {},
    fetch: retryingFetch(fetchOnce, { maxRetries: options.maxRetries ?? 2, maxDelayMs: options.maxRetryDelayMs }),
  });
  withIdempotencyKeys(api);
  return {
    /** The typed openapi-fetch client, for every operation the helpers do not cover. */
    api,
    signup: signup(api),
    lookup: lookup(api),
    companies: companies(api),
    documents: documents(api),
    inbox: inbox(api),
    events: events(api),
    webhooks: webhooks(api),
    sandbox: sandbox(api),
  };
}

export type EinvoiceClient = ReturnType<typeof createClient>;
