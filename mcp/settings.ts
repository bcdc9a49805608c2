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

export function settingsFrom(env: Record<string, string | undefined>): McpSettings {
  const apiKey = env.EINVOICE_API_KEY?.trim();
  if (!apiKey) {
    throw new SettingsError('EINVOICE_API_KEY is not set: give the server an API key of the account it acts for (ps_test_… for the sandbox host, ps_live_… for the live host).');
  }
  const baseUrl = env.EINVOICE_BASE_URL?.trim() || DEFAULT_BASE_URL;
  let protocol: string;
  try {
    protocol = new URL(baseUrl).protocol;
  } catch {
    throw new SettingsError(`EINVOICE_BASE_URL is not a URL: ${baseUrl} (expected the API's origin, e.g. https://api.example.com).`);
  }
  if (protocol !== 'https:' && protocol !== 'http:') throw new SettingsError(`EINVOICE_BASE_URL must be an http(s) URL, not ${baseUrl}.`);
  return { apiKey, baseUrl };
}
