/**
 * What the MCP server needs from its environment: the API key it acts with
 * and the API's origin (and the live host's, when it is another). Read once
 * at start; a missing key stops the server before it speaks the protocol,
 * with the reason on stderr.
 */

export interface McpSettings {
  apiKey: string;
  baseUrl: string;
  /** The live host's origin, which a live key talks to (the SDK's `liveBaseUrl`). */
  liveBaseUrl?: string;
}

/**
 * A local run of `npm start`: the API on port 3000, its sandbox host.
 * @internal
 */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:3000';
/**
 * The same run's live host, by a name Node resolves (`live.localhost` it does not).
 * @internal
 */
export const DEFAULT_LIVE_BASE_URL = 'http://localhost:3000';

export class SettingsError extends Error {
  override name = 'SettingsError';
}

/** Text that may hold a URL, with any credentials in it (`user:password@`) masked: they are never repeated in a message. */
export const withoutCredentials = (text: string) => text.replace(/\/\/[^/?#@\s]*@/g, '//***@');

export function settingsFrom(env: Record<string, string | undefined>): McpSettings {
  const apiKey = env.EINVOICE_API_KEY?.trim();
  if (!apiKey) {
    throw new SettingsError(
      'EINVOICE_API_KEY is not set: give the server an API key of the account it acts for (ps_test_… for the sandbox host, ps_live_… for the live host).',
    );
  }
  const baseUrl = origin('EINVOICE_BASE_URL', env.EINVOICE_BASE_URL?.trim() || DEFAULT_BASE_URL);
  // Unset with no base URL either: the local run's live host, so either key works there as it is.
  const live =
    env.EINVOICE_LIVE_BASE_URL?.trim() || (env.EINVOICE_BASE_URL?.trim() ? undefined : DEFAULT_LIVE_BASE_URL);
  return { apiKey, baseUrl, ...(live && { liveBaseUrl: origin('EINVOICE_LIVE_BASE_URL', live) }) };
}

/** An origin given by the variable `name`: an http(s) URL without credentials. */
function origin(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SettingsError(
      `${name} is not a URL: ${withoutCredentials(value)} (expected the API's origin, e.g. https://api.example.com).`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new SettingsError(`${name} must be an http(s) URL, not ${withoutCredentials(value)}.`);
  if (url.username || url.password) {
    throw new SettingsError(
      `${name} holds credentials (${withoutCredentials(value)}): give the API's origin alone; the server authenticates with EINVOICE_API_KEY.`,
    );
  }
  return value;
}
