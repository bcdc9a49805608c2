/**
 * A non-2xx answer of the API, with what its error envelope says
 * (`{"error": {type, code, message, retry, param?, details?}}`) and the
 * request id to quote to support.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  /** Machine-readable reason, e.g. `document_invalid`, `webhook_not_found`. */
  readonly code: string;
  /** The family of the error, e.g. `validation_error`. */
  readonly type: string;
  /** The HTTP status. */
  readonly status: number;
  /** The request field at fault, as a JSON path, when there is one. */
  readonly param: string | undefined;
  /** More about the error, e.g. `violations` of a refused document. */
  readonly details: Record<string, unknown> | undefined;
  /** Whether the same request may succeed later (the service says so). */
  readonly retryable: boolean;
  /** The `X-Request-Id` of the answer. */
  readonly requestId: string | undefined;
  /** Seconds the service asked to wait (`Retry-After`), when it did. */
  readonly retryAfterSeconds: number | undefined;

  constructor(fields: {
    status: number;
    code: string;
    type: string;
    message: string;
    param?: string | undefined;
    details?: Record<string, unknown> | undefined;
    retryable?: boolean;
    requestId?: string | undefined;
    retryAfterSeconds?: number | undefined;
  }) {
    super(fields.message);
    this.status = fields.status;
    this.code = fields.code;
    this.type = fields.type;
    this.param = fields.param;
    this.details = fields.details;
    this.retryable = fields.retryable ?? false;
    this.requestId = fields.requestId;
    this.retryAfterSeconds = fields.retryAfterSeconds;
  }

  /** Reads the envelope of `body` (already parsed); an answer without one (a proxy's page) gets code `unexpected_response`. */
  static fromResponse(response: Response, body: unknown): ApiError {
    const envelope = isEnvelope(body) ? body.error : undefined;
    const retryAfter = Number(response.headers.get('retry-after'));
    return new ApiError({
      status: response.status,
      code: envelope?.code ?? 'unexpected_response',
      type: envelope?.type ?? 'api_error',
      message: envelope?.message ?? `HTTP ${response.status} ${response.statusText} without the API's error envelope`,
      param: envelope?.param,
      details: envelope?.details,
      retryable: envelope?.retry?.retryable ?? false,
      requestId: response.headers.get('x-request-id') ?? undefined,
      retryAfterSeconds: Number.isFinite(retryAfter) && response.headers.has('retry-after') ? retryAfter : undefined,
    });
  }
}

interface Envelope {
  error: {
    type: string;
    code: string;
    message: string;
    retry?: { retryable?: boolean };
    param?: string;
    details?: Record<string, unknown>;
  };
}

function isEnvelope(body: unknown): body is Envelope {
  if (typeof body !== 'object' || body === null || !('error' in body)) return false;
  const error = body.error;
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string';
}

/** `documents.outcome` waited its time limit and the document is still `queued` or `sending`. */
export class OutcomeTimeoutError extends Error {
  override name = 'OutcomeTimeoutError';
  constructor(
    readonly documentId: string,
    /** The status last read. */
    readonly status: string,
    readonly timeoutMs: number,
  ) {
    super(`document ${documentId} is still ${status} after ${timeoutMs} ms`);
  }
}
