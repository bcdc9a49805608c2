/**
 * What the MCP server needs from its environment: the API key it acts with
 * and the API's origin. Read once at start; a missing key stops the server
 * before it speaks the protocol, with the reason on stderr.
 */

export interface McpSettings {
  apiKey: string;
  baseUrl: string;
}

/** A local run of `npm start`: the API on port 3000, its sandbox host. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:3000';

export class SettingsError extends Error {
  override name = 'SettingsError';
}

/** Text that may hold a URL, with any credentials in it (`user:password@`) masked: they are never repeated in a message. */
export const withoutCredentials = (text: string) => text.replace(/\/\/[^/?#@\s]*@/g, '//***@');

export function settingsFrom(env: Record<string, string | undefined>): McpSettings {
  const apiKey = env.EINVOICE_API_KEY?.trim();
  if (!apiKey) {
    throw new SettingsError('EINVOICE_API_KEY is not set: give the server an API key of the account it acts for (ps_test_… for the sandbox host, ps_live_… for the live host).');
  }
  const baseUrl = env.EINVOICE_BASE_URL?.trim() || DEFAULT_BASE_URL;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new SettingsError(`EINVOICE_BASE_URL is not a URL: ${withoutCredentials(baseUrl)} (expected the API's origin, e.g. https://api.example.com).`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new SettingsError(`EINVOICE_BASE_URL must be an http(s) URL, not ${withoutCredentials(baseUrl)}.`);
  if (url.username || url.password) {
    throw new SettingsError(`EINVOICE_BASE_URL holds credentials (${withoutCredentials(baseUrl)}): give the API's origin alone; the server authenticates with EINVOICE_API_KEY.`);
  }
  return { apiKey, baseUrl };
}
