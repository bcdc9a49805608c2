import http from 'node:http';

import { checkAgainstDescription } from './openapi-conformance';
import { sharedStack } from './test-stack';

export interface ApiResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON, if the body was JSON; tests assert on whatever the API answered. */
  body: any;
  text: string;
  /** The body as it came, for binary answers (attachments). */
  bytes: Buffer;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  baseUrl?: string;
}

/**
 * A real HTTP request to an API process (the shared stack's by default),
 * whose answer is checked against that process's OpenAPI description
 * (support/openapi-conformance.ts). node:http rather than fetch, because
 * fetch will not send a custom Host header, and the Host header is how the
 * live environment is reached.
 */
export async function callApi(path: string, options: RequestOptions = {}): Promise<ApiResponse> {
  const baseUrl = options.baseUrl ?? sharedStack().apiUrl;
  const response = await send(path, baseUrl, options);
  await checkAgainstDescription(
    baseUrl,
    options.method ?? 'GET',
    path,
    response.status,
    response.headers.get('content-type'),
    response.body,
  );
  return response;
}

function send(path: string, baseUrl: string, options: RequestOptions): Promise<ApiResponse> {
  const url = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: options.method ?? 'GET', headers: options.headers, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const bytes = Buffer.concat(chunks);
          const text = bytes.toString('utf8');
          const headers = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = undefined;
          }
          resolve({ status: response.statusCode ?? 0, headers, body, text, bytes });
        });
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}
