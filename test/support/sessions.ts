import { fakeClientIp } from './accounts';
import { inboxFor } from './documents';
import { callApi, type ApiResponse } from './http';
import { until } from './until';

/** Signing in to the web app as a person does: a link asked for by email, read from the mail sink. */

export async function askForSignInLink(
  email: string,
  options: { host?: string; clientIp?: string } = {},
): Promise<ApiResponse> {
  return callApi('/v1/sign-in-links', {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Forwarded-For': options.clientIp ?? fakeClientIp(),
      ...(options.host && { Host: options.host }),
    },
    body: JSON.stringify({ email }),
  });
}

/** The links the sink holds for `email`, oldest first, once there are `count`. */
export async function signInLinksFor(email: string, count = 1): Promise<string[]> {
  const links = async () => {
    const messages = await inboxFor(email);
    return messages
      .filter((message) => message.subject === 'Your sign-in link')
      .flatMap((message) => /https?:\/\/\S+#token=[0-9A-Za-z]{43}/.exec(message.text ?? '') ?? []);
  };
  return until(`${count} sign-in link(s) for ${email}`, links, (found) => found.length >= count, 20_000, 200);
}

export const tokenOf = (link: string) => new URL(link).hash.slice('#token='.length);

export interface Session {
  cookie: string;
  csrf: string;
}

/** Spends a link's token: the session's cookie header and CSRF token, or the refusal. */
export async function startSession(
  token: string,
  options: { host?: string } = {},
): Promise<{ response: ApiResponse; session?: Session }> {
  const response = await callApi('/v1/sessions', {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Forwarded-For': fakeClientIp(),
      ...(options.host && { Host: options.host }),
    },
    body: JSON.stringify({ token }),
  });
  if (response.status !== 201) return { response };
  const cookies = response.headers.get('set-cookie') ?? '';
  const value = (name: string) => new RegExp(`(?:^|, )${name}=([^;]*)`).exec(cookies)?.[1] ?? '';
  return {
    response,
    session: {
      cookie: `einvoice_session=${value('einvoice_session')}; einvoice_csrf=${value('einvoice_csrf')}`,
      csrf: value('einvoice_csrf'),
    },
  };
}

/** A request made with a session, as the app makes it: its cookie, and its CSRF token unless `csrf` says otherwise. */
export function callWithSession(
  session: Session,
  path: string,
  options: { method?: string; body?: unknown; csrf?: string | null; workspace?: string; host?: string } = {},
): Promise<ApiResponse> {
  const csrf = options.csrf === undefined ? session.csrf : options.csrf;
  return callApi(path, {
    method: options.method ?? 'GET',
    headers: {
      Cookie: session.cookie,
      ...(csrf !== null && { 'X-CSRF-Token': csrf }),
      ...(options.workspace && { 'X-Workspace-Id': options.workspace }),
      ...(options.host && { Host: options.host }),
      ...(options.body !== undefined && { 'Content-Type': 'application/json' }),
    },
    ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
  });
}
