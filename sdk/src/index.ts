export { createClient, originOf, type ClientOptions, type EinvoiceClient } from './client';
export { ApiError, OutcomeTimeoutError } from './errors';
export type { JsonBody, ListQuery, Query, Schema } from './operation-types';
export { paginate, type Page } from './pagination';
export type { OutcomeOptions, SendOptions } from './resources/documents';
export type { components, operations, paths, webhooks } from './schema';
export {
  DEFAULT_TOLERANCE_SECONDS,
  verifyWebhook,
  WebhookVerificationError,
  type VerifyWebhookInput,
  type WebhookEvent,
  type WebhookVerificationFailure,
} from './webhook-signature';
