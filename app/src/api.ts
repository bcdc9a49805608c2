import createClient, { type Middleware } from 'openapi-fetch';

import type { components, paths } from '../../sdk/src/schema';

/**
 * The app's one way to the service: the public /v1 API, same origin, with
 * the session cookie the browser sends by itself. Every change carries the
 * CSRF token (read from its cookie) and every call the workspace chosen in
 * the switcher. Typed by the SDK's types, generated from the OpenAPI
 * description: the app can do nothing a client cannot.
 */

export type Schemas = components['schemas'];
export type ApiError = Schemas['ErrorEnvelope']['error'];

const CSRF_COOKIE = 'einvoice_csrf';
const WORKSPACE_KEY = 'einvoice.workspace';

function cookie(name: string): string | undefined {
  return document.cookie
    .split(';')
    .map((pair) => pair.trim().split('='))
    .find(([key]) => key === name)?.[1];
}

export const chosenWorkspace = {
  get: (): string | null => sessionStorage.getItem(WORKSPACE_KEY),
  set: (id: string) => sessionStorage.setItem(WORKSPACE_KEY, id),
  clear: () => sessionStorage.removeItem(WORKSPACE_KEY),
};

const sessionHeaders: Middleware = {
  onRequest({ request }) {
    if (request.method !== 'GET' && request.method !== 'HEAD')
      request.headers.set('X-CSRF-Token', cookie(CSRF_COOKIE) ?? '');
    const workspace = chosenWorkspace.get();
    if (workspace) request.headers.set('X-Workspace-Id', workspace);
    return request;
  },
};

export const api = createClient<paths>({ baseUrl: window.location.origin, credentials: 'same-origin' });
api.use(sessionHeaders);

/** An answer's data, or its error thrown (the envelope's `error`), so queries and mutations see failures as errors. */
export async function answer<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (error === undefined && response.ok) return data as T;
  const envelope = (error as { error?: ApiError } | undefined)?.error;
  throw Object.assign(new Error(envelope?.message ?? response.statusText), { api: envelope, status: response.status });
}

export const statusOf = (err: unknown): number | undefined => (err as { status?: number } | null)?.status;
