import { sharedStack } from './test-stack';

export interface ApiResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON, if the body was JSON; tests assert on whatever the API answered. */
  body: any;
  text: string;
}

/** A real HTTP request to the shared stack's API process. */
export async function callApi(path: string, init: RequestInit & { baseUrl?: string } = {}): Promise<ApiResponse> {
  const response = await fetch(`${init.baseUrl ?? sharedStack().apiUrl}${path}`, init);
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}
