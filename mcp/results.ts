import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import { ApiError } from '../sdk/src';
import { withoutCredentials } from './settings';

/**
 * What a tool call answers: the API's JSON as text, as the API wrote it. An
 * API error is a tool error (`isError`) carrying the error envelope's fields
 * and the request id, so an agent can correct its input, or quote the id.
 */

const asText = (value: unknown, isError: boolean): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
  ...(isError && { isError: true }),
});

/** The API's answer; `refused` marks an answer that says no without being an error (a document judged invalid). */
export const answerResult = (data: unknown, refused = false): CallToolResult => asText(data, refused);

/** The envelope as the API sent it, with what the HTTP answer added (status, request id, Retry-After). */
function apiErrorResult(error: ApiError): CallToolResult {
  return asText(
    {
      error: {
        type: error.type,
        code: error.code,
        message: error.message,
        retry: {
          retryable: error.retryable,
          ...(error.retryAfterSeconds !== undefined && { after_seconds: error.retryAfterSeconds }),
        },
        ...(error.param !== undefined && { param: error.param }),
        ...(error.details !== undefined && { details: error.details }),
        status: error.status,
        request_id: error.requestId ?? null,
      },
    },
    true,
  );
}

/** A failure of the call itself: an API error, or no answer at all (the API unreachable). */
export function failureResult(error: unknown, baseUrl: string): CallToolResult {
  if (error instanceof ApiError) return apiErrorResult(error);
  const cause =
    error instanceof Error
      ? `${error.message}${error.cause instanceof Error ? `: ${error.cause.message}` : ''}`
      : String(error);
  return asText({ error: { message: withoutCredentials(`No answer from the API at ${baseUrl} (${cause}).`) } }, true);
}
