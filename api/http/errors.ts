import type { ErrorRequestHandler, Request, RequestHandler } from 'express';

import { unitsToEuros } from '../../domain/credits';
import { isDatabaseUnavailable } from '../../platform/database';
import { ValidationTimeLimitError, ValidatorUnavailableError } from '../../platform/official-validator';
import { ThreadPoolBusyError } from '../../platform/thread-pool';
import { UnansweredUpdateError } from '../../platform/workflow-port';
import { DnsLookupError, SmpLookupError } from '../../platform/peppol/lookup';
import { InsufficientCreditsError } from '../../services/credits/charges';
import { RuleError } from '../../services/errors';

/**
 * The one error type of the API and the one envelope every non-2xx response
 * carries. Each code's status, type and retry advice live in this catalog, so a
 * code means the same thing wherever it is raised.
 */

type ErrorType =
  | 'validation_error'
  | 'authentication_error'
  | 'authorization_error'
  | 'not_found'
  | 'payment_error'
  | 'rate_limit_error'
  | 'api_error';

interface CodeDefinition {
  status: number;
  type: ErrorType;
  retryable: boolean;
}

const catalog = {
  invalid_json: { status: 400, type: 'validation_error', retryable: false },
  invalid_xml: { status: 400, type: 'validation_error', retryable: false },
  invalid_field: { status: 400, type: 'validation_error', retryable: false },
  missing_field: { status: 400, type: 'validation_error', retryable: false },
  invalid_country: { status: 400, type: 'validation_error', retryable: false },
  invalid_peppol_id: { status: 400, type: 'validation_error', retryable: false },
  no_fields_to_update: { status: 400, type: 'validation_error', retryable: false },
  batch_too_large: { status: 400, type: 'validation_error', retryable: false },
  webhook_url_not_allowed: { status: 400, type: 'validation_error', retryable: false },
  workspace_not_deletable: { status: 400, type: 'validation_error', retryable: false },
  missing_api_key: { status: 401, type: 'authentication_error', retryable: false },
  invalid_api_key: { status: 401, type: 'authentication_error', retryable: false },
  session_ended: { status: 401, type: 'authentication_error', retryable: false },
  sign_in_link_invalid: { status: 401, type: 'authentication_error', retryable: false },
  csrf_token_invalid: { status: 403, type: 'authorization_error', retryable: false },
  wrong_environment: { status: 403, type: 'authorization_error', retryable: false },
  sandbox_only: { status: 403, type: 'authorization_error', retryable: false },
  insufficient_role: { status: 403, type: 'authorization_error', retryable: false },
  disabled_account: { status: 403, type: 'authentication_error', retryable: false },
  key_limited: { status: 403, type: 'authorization_error', retryable: false },
  not_company_member: { status: 403, type: 'authorization_error', retryable: false },
  workspace_not_verified: { status: 403, type: 'authorization_error', retryable: false },
  workspace_suspended: { status: 403, type: 'authorization_error', retryable: false },
  insufficient_credits: { status: 402, type: 'payment_error', retryable: false },
  api_key_not_found: { status: 404, type: 'not_found', retryable: false },
  workspace_not_found: { status: 404, type: 'not_found', retryable: false },
  company_not_found: { status: 404, type: 'not_found', retryable: false },
  member_not_found: { status: 404, type: 'not_found', retryable: false },
  account_not_found: { status: 404, type: 'not_found', retryable: false },
  route_not_found: { status: 404, type: 'not_found', retryable: false },
  method_not_allowed: { status: 405, type: 'validation_error', retryable: false },
  document_not_found: { status: 404, type: 'not_found', retryable: false },
  ubl_not_available: { status: 404, type: 'not_found', retryable: false },
  // Only a stored document that is no UBL invoice or credit note (a received one, as it came) gets this.
  document_not_renderable: { status: 422, type: 'validation_error', retryable: false },
  // Likewise: a received business document that is no UBL invoice or credit note cannot be written as CII.
  document_not_convertible: { status: 422, type: 'validation_error', retryable: false },
  attachment_not_found: { status: 404, type: 'not_found', retryable: false },
  webhook_not_found: { status: 404, type: 'not_found', retryable: false },
  delivery_not_found: { status: 404, type: 'not_found', retryable: false },
  participant_not_found: { status: 404, type: 'not_found', retryable: false },
  email_taken: { status: 409, type: 'validation_error', retryable: false },
  kyc_locked: { status: 409, type: 'validation_error', retryable: false },
  sender_not_verified: { status: 409, type: 'validation_error', retryable: false },
  kyc_document_not_found: { status: 404, type: 'not_found', retryable: false },
  // The request is well formed; the workspace's state (its only owner) refuses it.
  last_owner: { status: 409, type: 'validation_error', retryable: false },
  // Well formed, but meaningless: the caller (an owner, or the request would be 403) names themself as the new owner.
  transfer_to_self: { status: 422, type: 'validation_error', retryable: false },
  kyc_not_submittable: { status: 409, type: 'validation_error', retryable: false },
  kyc_missing_content: { status: 400, type: 'validation_error', retryable: false },
  kyc_invalid_encoding: { status: 400, type: 'validation_error', retryable: false },
  kyc_invalid_doc_type: { status: 400, type: 'validation_error', retryable: false },
  kyc_unsupported_type: { status: 400, type: 'validation_error', retryable: false },
  kyc_mime_mismatch: { status: 400, type: 'validation_error', retryable: false },
  kyc_mandate_requires_company: { status: 400, type: 'validation_error', retryable: false },
  kyc_doc_pairing_invalid: { status: 400, type: 'validation_error', retryable: false },
  kyc_document_too_large: { status: 413, type: 'validation_error', retryable: false },
  kyc_no_companies: { status: 422, type: 'validation_error', retryable: false },
  kyc_no_own_company: { status: 422, type: 'validation_error', retryable: false },
  kyc_invalid_company: { status: 422, type: 'validation_error', retryable: false },
  kyc_missing_documents: { status: 422, type: 'validation_error', retryable: false },
  kyc_missing_legal_name: { status: 422, type: 'validation_error', retryable: false },
  kyc_missing_enterprise_number: { status: 422, type: 'validation_error', retryable: false },
  kyc_attestation_incomplete: { status: 422, type: 'validation_error', retryable: false },
  kyc_attestation_not_accepted: { status: 422, type: 'validation_error', retryable: false },
  kyc_attestation_version_mismatch: { status: 422, type: 'validation_error', retryable: false },
  already_member: { status: 409, type: 'validation_error', retryable: false },
  key_limit_reached: { status: 409, type: 'validation_error', retryable: false },
  delivery_not_redeliverable: { status: 409, type: 'validation_error', retryable: false },
  not_received_document: { status: 409, type: 'validation_error', retryable: false },
  // The document's earlier Invoice Responses (OP-BR111) forbid this code.
  response_not_allowed: { status: 409, type: 'validation_error', retryable: false },
  // The invoice's sender is not registered for Invoice Responses on Peppol.
  sender_cannot_receive_responses: { status: 422, type: 'validation_error', retryable: false },
  not_sent_document: { status: 409, type: 'validation_error', retryable: false },
  // A migration key is for a participant registered here; there is none.
  receiver_not_registered: { status: 409, type: 'validation_error', retryable: false },
  unsupported_media_type: { status: 415, type: 'validation_error', retryable: false },
  body_too_large: { status: 413, type: 'validation_error', retryable: false },
  document_too_large: { status: 413, type: 'validation_error', retryable: false },
  xml_too_complex: { status: 422, type: 'validation_error', retryable: false },
  document_invalid: { status: 422, type: 'validation_error', retryable: false },
  not_ubl_document: { status: 422, type: 'validation_error', retryable: false },
  // A UBL document posted for a company whose seller is another party.
  seller_mismatch: { status: 422, type: 'validation_error', retryable: false },
  ubl_not_routable: { status: 422, type: 'validation_error', retryable: false },
  recipient_not_found: { status: 422, type: 'validation_error', retryable: false },
  rate_limit_exceeded: { status: 429, type: 'rate_limit_error', retryable: true },
  sandbox_recipient_quota: { status: 429, type: 'rate_limit_error', retryable: true },
  // One rendering in flight per key: the next may start when it has finished.
  rendering_in_progress: { status: 429, type: 'rate_limit_error', retryable: true },
  service_degraded: { status: 503, type: 'api_error', retryable: true },
  // The database is away (restarting, unreachable): the same request a few seconds later may succeed.
  service_unavailable: { status: 503, type: 'api_error', retryable: true },
  // Every worker thread is busy and the queue before them is full: a moment later there is room.
  server_busy: { status: 503, type: 'api_error', retryable: true },
  validator_unavailable: { status: 503, type: 'api_error', retryable: true },
  // The SML's DNS or the participant's SMP failed; the same lookup may work later.
  lookup_dns_failed: { status: 502, type: 'api_error', retryable: true },
  lookup_smp_failed: { status: 502, type: 'api_error', retryable: true },
  internal_error: { status: 500, type: 'api_error', retryable: true },
  // The provider may answer next time; nothing was changed meanwhile.
  provider_update_failed: { status: 502, type: 'api_error', retryable: true },
} as const satisfies Record<string, CodeDefinition>;

export type ErrorCode = keyof typeof catalog;

export interface ErrorEnvelope {
  error: {
    type: ErrorType;
    code: ErrorCode;
    message: string;
    retry: { retryable: boolean };
    param?: string;
    details?: Record<string, unknown>;
  };
}

export interface ApiErrorOptions {
  param?: string;
  details?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** What happened behind a deliberately plain answer: logged with it, never answered. */
  cause?: string;
}

export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  readonly type: ErrorType;
  readonly retryable: boolean;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: ApiErrorOptions = {},
  ) {
    super(message);
    const definition: CodeDefinition = catalog[code];
    this.status = definition.status;
    this.type = definition.type;
    this.retryable = definition.retryable;
  }

  toEnvelope(): ErrorEnvelope {
    const { param, details } = this.options;
    return {
      error: {
        type: this.type,
        code: this.code,
        message: this.message,
        retry: { retryable: this.retryable },
        ...(param !== undefined && { param }),
        ...(details !== undefined && { details }),
      },
    };
  }
}

/** The one place a key limited to one company is refused something: which company, and what it may not do. */
export function keyLimited(companyId: string, refusal: string): ApiError {
  return new ApiError('key_limited', `This API key is limited to company ${companyId}: ${refusal}.`);
}

/** The one place a body of the wrong media type is refused: what the route takes, and what came. */
export function unsupportedMediaType(expected: string, got: string): ApiError {
  return new ApiError('unsupported_media_type', `Send the body as ${expected} (got ${got}).`);
}

/** The one place an oversized body is refused, whether its declared length or its bytes gave it away. */
export function bodyTooLarge(limitBytes: number | undefined): ApiError {
  return new ApiError('body_too_large', 'The request body is larger than this endpoint accepts.', {
    details: { limit_bytes: limitBytes },
  });
}

/** Status codes the catalog can produce, for documenting error responses. */
export function statusOf(code: ErrorCode): number {
  return catalog[code].status;
}

/** The service's own parts are away: a retry soon is safe with the same idempotency key. */
function serviceUnavailable(unreachable: string, err: Error): ApiError {
  return new ApiError(
    'service_unavailable',
    `${unreachable} Retry in a few seconds; with the same idempotency key a document is never created twice.`,
    {
      headers: { 'Retry-After': '5' },
      cause: err.message,
    },
  );
}

/** Errors of known kinds become the envelope's codes here, and only here. */
function fromKnownError(err: unknown): ApiError | undefined {
  if (err instanceof ApiError) return err;
  if (err instanceof RuleError) return new ApiError(err.code, err.message, err.options);
  if (err instanceof InsufficientCreditsError) {
    return new ApiError(
      'insufficient_credits',
      `${err.message} Top up the workspace's credits, or send from the sandbox.`,
      {
        details: { balance: unitsToEuros(err.balanceUnits), price: unitsToEuros(err.priceUnits) },
      },
    );
  }
  if (err instanceof ValidationTimeLimitError) {
    return new ApiError(
      'validator_unavailable',
      `The official validation did not finish within ${err.limitMs / 1000} s and was stopped; a document that takes that long is too large or too complex to validate here.`,
    );
  }
  if (err instanceof ValidatorUnavailableError)
    return new ApiError('validator_unavailable', 'The official validator is not available right now; retry shortly.');
  if (isDatabaseUnavailable(err))
    return serviceUnavailable('The service cannot reach its database right now.', err as Error);
  if (err instanceof UnansweredUpdateError) {
    return serviceUnavailable(
      "What was sent was not confirmed in time (it may still be, a moment later): look for it (GET /v1/documents, or the document's responses) before sending it again.",
      err,
    );
  }
  if (err instanceof ThreadPoolBusyError) {
    return new ApiError(
      'server_busy',
      'Every worker for reading and converting documents is busy; retry in a second.',
      { headers: { 'Retry-After': '1' } },
    );
  }
  if (err instanceof DnsLookupError) {
    return new ApiError(
      'lookup_dns_failed',
      `The lookup failed at its first step (SML, DNS): ${err.message}. Retry later.`,
      {
        details: { step: 'sml', dns_name: err.dnsName, reason: err.reason },
      },
    );
  }
  if (err instanceof SmpLookupError) {
    // The reason in a fixed phrase: the detail would tell how another host answers.
    return new ApiError(
      'lookup_smp_failed',
      `The lookup failed at its second step (SMP, HTTP): the SMP ${err.reason} (${err.url}). Retry later.`,
      {
        details: { step: 'smp', url: err.url, reason: err.reason },
        cause: err.message,
      },
    );
  }
  // The router decodes each path parameter; a malformed percent-encoding (`%ff`) is the client's to fix.
  if (err instanceof URIError) {
    return new ApiError(
      'invalid_field',
      'A path segment is not valid percent-encoding (UTF-8 bytes as %XX); send the id as it was given.',
    );
  }
  // Express body-parser failures carry a `type`.
  if (typeof err !== 'object' || err === null || !('type' in err)) return undefined;
  switch (err.type) {
    case 'entity.too.large':
      return bodyTooLarge((err as { limit?: number }).limit);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return unsupportedMediaType('UTF-8 text', 'another charset or encoding');
    default:
      return undefined;
  }
}

/** The last route: a path no route has is 404; a known path asked with another method is 405 with `Allow`. */
export function routeNotFound(allowedMethods: (path: string) => string[] = () => []): RequestHandler {
  return (req, _res, next) => {
    const allowed = allowedMethods(req.path);
    if (allowed.length > 0) {
      next(
        new ApiError(
          'method_not_allowed',
          `${req.method} is not supported on ${req.path}; use ${allowed.join(', ')}.`,
          {
            headers: { Allow: allowed.join(', ') },
          },
        ),
      );
      return;
    }
    next(new ApiError('route_not_found', `No route ${req.method} ${req.path}. See /v1/openapi.json for the API.`));
  };
}

/**
 * What a thrown error answers: a known kind its own code; anything else
 * `internal_error` (the one place that code is made), logged with its stack
 * and answered without internals.
 */
export function answerFor(err: unknown, req: Request): ApiError {
  const known = fromKnownError(err);
  if (known) {
    const { cause } = known.options;
    req.log.info({ code: known.code, status: known.status, ...(cause && { cause }) }, known.message);
    return known;
  }
  req.log.error({ err }, 'unhandled error');
  return new ApiError(
    'internal_error',
    'Something went wrong on our side. Retry later (with the same idempotency key); the request id identifies it for support.',
  );
}

/** Last middleware: anything thrown is written as the envelope of its answer. */
export const errorHandler: ErrorRequestHandler = (err: unknown, req, res, _next) => {
  const apiError = answerFor(err, req);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  for (const [name, value] of Object.entries(apiError.options.headers ?? {})) res.setHeader(name, value);
  res.status(apiError.status).json(apiError.toEnvelope());
};
