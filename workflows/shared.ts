import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

import type { BreakerState } from '../domain/webhook-breaker';
import type { DocumentAcceptance } from '../domain/documents/acceptance';
import { taskQueueOf } from './task-queues';

/**
 * Names and settings shared by the API (which starts workflows), the worker
 * (which runs them), the activities and the embedded stack. Pure constants:
 * safe to import from workflow code.
 */

/** The service's base task queue: its workflows run on it, and every other queue's name derives from it (workflows/task-queues.ts). */
export const TASK_QUEUE = 'einvoice';

/**
 * The monthly Peppol reporting schedule's id (Web UI: Schedules).
 * @internal
 */
export const PEPPOL_REPORTING_SCHEDULE = 'peppol-reporting-monthly';

/**
 * Custom search attributes an operator filters by in the Temporal Web UI,
 * e.g. `DocumentId = "doc_..."`, `DocumentStatus = "failed"`, `Environment = "live"` or `KycStatus = "pending"`.
 */
export const SEARCH_ATTRIBUTE_TYPES = {
  DocumentId: 'Keyword',
  CompanyId: 'Keyword',
  WorkspaceId: 'Keyword',
  DocumentStatus: 'Keyword',
  Environment: 'Keyword',
  KycStatus: 'Keyword',
} as const;

export const SEARCH_ATTRIBUTES = {
  documentId: defineSearchAttributeKey('DocumentId', SearchAttributeType.KEYWORD),
  companyId: defineSearchAttributeKey('CompanyId', SearchAttributeType.KEYWORD),
  workspaceId: defineSearchAttributeKey('WorkspaceId', SearchAttributeType.KEYWORD),
  documentStatus: defineSearchAttributeKey('DocumentStatus', SearchAttributeType.KEYWORD),
  environment: defineSearchAttributeKey('Environment', SearchAttributeType.KEYWORD),
  kycStatus: defineSearchAttributeKey('KycStatus', SearchAttributeType.KEYWORD),
};

/**
 * The housekeeping chores, each run by a schedule of the same id through one workflow (workflows/housekeeping.ts):
 * the activity it runs (that workflow's type check holds each to a registered activity), how often, and how long
 * one run may take.
 */
export const CHORES = {
  // FerretDB has no TTL indexes: ended rate-limit windows are deleted here.
  'rate-window-cleanup': { activity: 'deleteExpiredRateWindows', every: '10 minutes', startToCloseTimeout: '1 minute' },
  // Sign-in links and web app sessions a day after they stopped working.
  'sign-in-cleanup': { activity: 'deleteEndedSignIns', every: '1 hour', startToCloseTimeout: '1 minute' },
  // The parts a request stored for a document its workflow never recorded (the request died before the start).
  'unaccepted-parts-cleanup': { activity: 'discardUnacceptedParts', every: '1 hour', startToCloseTimeout: '5 minutes' },
  // Every event reaches the webhooks subscribed to it, even when the process that recorded it could not fan it out.
  'event-fanout-reconciler': { activity: 'reconcileEventFanOut', every: '1 minute', startToCloseTimeout: '5 minutes' },
  // Every pending KYC submission has a review an operator can decide.
  'kyc-review-reconciler': { activity: 'startMissingKycReviews', every: '1 minute', startToCloseTimeout: '2 minutes' },
  // A message stored (and receipted) is filed even when the intake could not start its workflow.
  'received-message-reconciler': {
    activity: 'startMissingReceiveWorkflows',
    every: '1 minute',
    startToCloseTimeout: '2 minutes',
  },
  // The rows of Invoice Responses never given (the request died before their workflow started, or lost a race and its delete failed).
  'unclaimed-response-cleanup': {
    activity: 'discardUnclaimedResponses',
    every: '1 hour',
    startToCloseTimeout: '5 minutes',
  },
} as const satisfies Record<string, { activity: string; every: string; startToCloseTimeout: string }>;

type Chore = keyof typeof CHORES;

export interface HousekeepingInput {
  chore: Chore;
}

/** Schedules of chores this service no longer has: the worker deletes them where they remain. */
export const RETIRED_SCHEDULES: readonly string[] = ['queued-document-reconciler', 'invoice-response-reconciler'];

/** A schedule the worker keeps in place: id, workflow type and its arguments, and an interval or a calendar time (UTC). */
export type ScheduleDefinition = { id: string; workflowType: string; args?: unknown[] } & (
  { every: string } | { calendar: { dayOfMonth: number; hour: number; minute: number } }
);

/** Schedules the worker keeps in place. */
export const SCHEDULES: readonly ScheduleDefinition[] = [
  ...Object.entries(CHORES).map(([chore, { every }]) => ({
    id: chore,
    workflowType: 'housekeepingWorkflow',
    args: [{ chore }],
    every,
  })),
  // The previous month's Peppol reports, due by the 15th: sent on the 2nd at 06:07 UTC, as phoss-ap does.
  {
    id: PEPPOL_REPORTING_SCHEDULE,
    workflowType: 'monthlyPeppolReportingWorkflow',
    calendar: { dayOfMonth: 2, hour: 6, minute: 7 },
  },
];

/** One send workflow per document: the id is the business key, so starting twice is harmless. */
export const sendWorkflowId = (documentId: string) => `send-${documentId}`;

/**
 * The update a send workflow is started with (Update-with-Start): it answers once the first step has recorded the
 * document (or refused it), with the AcceptanceOutcome. One id per workflow, so a repeated call is answered once.
 */
export const ACCEPT_UPDATE = 'accept';

/** The update a response's send workflow is started with by the API: it answers once the first step has claimed the response (or refused it). */
export const GIVE_UPDATE = 'give';

export interface SendDocumentInput {
  documentId: string;
  /** What its first step records (services/documents/accept.ts): the workflow is started by the request that accepts it. */
  acceptance: DocumentAcceptance;
  /** How long delivery is retried before the document fails (DELIVERY_WINDOW_SECONDS). */
  deliveryWindowSeconds: number;
  /** The sender asked for the rendered PDF to be embedded (`attach_pdf`); absent means no. */
  attachPdf?: boolean;
}

/** How long delivery is retried, by environment (DELIVERY_WINDOW_SECONDS, LIVE_DELIVERY_WINDOW_SECONDS). */
export interface DeliveryWindows {
  sandbox: number;
  live: number;
}

/** Sandbox documents go by email; live ones on the Peppol network. */
export type DeliveryChannel = 'email' | 'peppol';
export const channelOf = (environment: 'sandbox' | 'live'): DeliveryChannel =>
  environment === 'live' ? 'peppol' : 'email';

/** Backoff between delivery attempts; the delivery window bounds how long they go on. */
export const DELIVERY_RETRY = {
  initialIntervalMs: 1_000,
  backoffCoefficient: 2,
  maximumIntervalMs: 5 * 60_000,
} as const;

/** How long one delivery attempt may take; the SMTP client's own timeouts end an attempt well before. */
export const DELIVERY_ATTEMPT_TIMEOUT_MS = 60_000;
/** A worker that dies mid-attempt is noticed this fast (attempts heartbeat). */
export const DELIVERY_HEARTBEAT_TIMEOUT_MS = 15_000;

/** The wait before the attempt after `attempt` (1-based), as the activity retry policy computes it. */
export function delayAfterAttempt(attempt: number): number {
  const { initialIntervalMs, backoffCoefficient, maximumIntervalMs } = DELIVERY_RETRY;
  return Math.min(maximumIntervalMs, initialIntervalMs * backoffCoefficient ** (attempt - 1));
}

/** Error types that end delivery at once, without further attempts. */
export const PERMANENT_DELIVERY_ERROR = 'PermanentDeliveryError';
/** A move the lifecycle table does not allow from the document's status. */
export const ILLEGAL_MOVE_ERROR = 'IllegalMoveError';

/** One long-lived workflow per webhook endpoint sends all its deliveries (workflows/webhook-endpoint.ts). */
export const webhookEndpointWorkflowId = (webhookId: string) => `webhook-endpoint-${webhookId}`;

export interface WebhookEndpointInput {
  webhookId: string;
  /** An endpoint failing this long without one success is disabled (WEBHOOK_DISABLE_AFTER). */
  disableAfterMs: number;
  /** The circuit breaker, carried from the run before (continue-as-new); closed when absent. */
  breaker?: BreakerState;
}

/**
 * Sent to an endpoint's workflow (by signal-with-start) when there is work: a delivery made, one redelivered, the
 * webhook enabled again. `probe`: someone says the endpoint is mended, so a pause of its breaker ends now.
 */
export const WEBHOOK_WAKE_SIGNAL = 'wake';
export interface WebhookWake {
  probe: boolean;
}

/** What an endpoint's workflow answers the `breaker` query with (`ops webhook delivery` shows it). */
export const WEBHOOK_BREAKER_QUERY = 'breaker';
export interface WebhookEndpointState {
  breaker: BreakerState;
}

/** Attempts per webhook delivery (the spec's 5); then the delivery is failed, in the dead-letter queue. */
export const WEBHOOK_MAX_ATTEMPTS = 5;
/** Deliveries of one endpoint in flight at once, oldest due first; the worker's WEBHOOK_TASK_SLOTS bound all endpoints together. */
export const WEBHOOK_ENDPOINT_CONCURRENCY = 4;

/**
 * One review workflow per workspace at a time (`kyc-<workspace id>`): a
 * resubmission after a rejection starts a new run under the same id, once the
 * previous run has closed.
 */
export const kycWorkflowId = (workspaceId: string) => `kyc-${workspaceId}`;

export interface KycReviewInput {
  workspaceId: string;
  /** The submission under review (1, then one more per resubmission). */
  submission: number;
}

/** While a KYC review waits for its decision, the operators are reminded this often (OPERATOR_EMAIL). */
export const KYC_REVIEW_REMINDER_EVERY = '1 day';

/** What the operator sends, as signal `review` (Web UI, ops CLI): `{"decision": "approve"}` or `{"decision": "reject", "reason": "…"}`. */
export interface KycDecision {
  decision: 'approve' | 'reject';
  reason?: string;
  /** Who decided, for the audit trail (`operator:<name>` from the ops CLI); the Web UI sends none. */
  operator?: string;
}

export const KYC_REVIEW_SIGNAL = 'review';
export const KYC_STATE_QUERY = 'state';

/** A company created after approval whose provisioning failed is retried by its own workflow. */
export const provisionWorkflowId = (companyId: string) => `provision-${companyId}`;

export interface ProvisionCompanyInput {
  companyId: string;
}

/** Provisioning goes on until the provider takes the company: backoff up to 5 minutes, no last attempt. */
export const PROVISION_RETRY = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '5 minutes',
} as const;

/** One receive workflow per received message; the id is its document's, made when the message was stored. */
export const receiveWorkflowId = (documentId: string) => `receive-${documentId}`;

export interface ReceiveDocumentInput {
  documentId: string;
}

/**
 * A received message's steps are retried with backoff up to 5 minutes (a validator or database away is waited
 * for), but not for ever: filing stops after RECEIVE_FILING_WINDOW, at once on an error the same document
 * always raises (a reader's TypeError or RangeError, a stack overflow among them), and the message is then
 * filed unread with why as its finding. Nothing is dropped either way.
 */
export const RECEIVE_RETRY = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '5 minutes',
  nonRetryableErrorTypes: ['TypeError', 'RangeError', 'SyntaxError'],
};
export const RECEIVE_FILING_WINDOW = '24 hours';

/** One workflow per company brings its SMP and SML registration in line with the company (id `receiving-<company id>`). */
export const receivingWorkflowId = (companyId: string) => `receiving-${companyId}`;

export interface SyncReceivingInput {
  companyId: string;
}

/** Sent to a running registration workflow when the company changed: it looks again before it ends. */
export const RECEIVING_CHANGED_SIGNAL = 'changed';

/** The SML is asked again with backoff for about half an hour; then the company's registration is `failed`, saying why. */
export const REGISTRATION_REFUSED = 'RegistrationRefused';
export const REGISTRATION_RETRY = {
  initialInterval: '2 seconds',
  backoffCoefficient: 2,
  maximumInterval: '5 minutes',
  maximumAttempts: 12,
  nonRetryableErrorTypes: [REGISTRATION_REFUSED],
};

/** Our service provider participant's SML registration (MLS comes to it): one workflow per participant, started by each worker. */
export const serviceProviderWorkflowId = (participant: string) =>
  `receiving-service-provider-${participant.toLowerCase()}`;

export interface RegisterServiceProviderInput {
  participant: string;
}

/** Asked again with backoff for as long as it takes (the worker restarting does not end it); a refusal ends it at once. */
export const SERVICE_PROVIDER_RETRY = {
  initialInterval: '5 seconds',
  backoffCoefficient: 2,
  maximumInterval: '10 minutes',
  nonRetryableErrorTypes: [REGISTRATION_REFUSED],
};

/** One send workflow per Invoice Response our company gives (id `response-<response id>`). */
export const responseWorkflowId = (responseId: string) => `response-${responseId}`;

export interface SendResponseInput {
  responseId: string;
  /** The document's response the draft was judged against (null: none): the first step claims the document only while it still is. */
  previousResponseId: string | null;
  /** How long its sending is retried before it fails (DELIVERY_WINDOW_SECONDS, as for documents). */
  deliveryWindowSeconds: number;
}

/** What a response's send workflow is started with, by the API or as the receive workflow's child (an acknowledgement). */
export interface ResponseSendStart {
  input: SendResponseInput;
  documentId: string;
  companyId: string;
  workspaceId: string;
  environment: 'sandbox' | 'live';
  summary: string;
}

/** Its id, found in the Web UI by the document, company and workspace; never reused (a response is sent once). */
export function responseSendOptions({
  input,
  documentId,
  companyId,
  workspaceId,
  environment,
  summary,
}: ResponseSendStart) {
  return {
    workflowId: responseWorkflowId(input.responseId),
    typedSearchAttributes: [
      { key: SEARCH_ATTRIBUTES.documentId, value: documentId },
      { key: SEARCH_ATTRIBUTES.companyId, value: companyId },
      { key: SEARCH_ATTRIBUTES.workspaceId, value: workspaceId },
      { key: SEARCH_ATTRIBUTES.environment, value: environment },
    ],
    staticSummary: summary,
  };
}

/**
 * A Message Level Status must leave within 20 minutes of the message it answers (Peppol Network Policy MLS-1):
 * its send is retried with the delivery backoff for at most this long, then recorded as failed.
 */
export const MLS_SEND_WINDOW_SECONDS = 15 * 60;

/**
 * One Peppol reporting workflow per month, `peppol-reporting-<YYYY-MM>`: started by the monthly schedule or by
 * `ops reporting <month> --send`, whichever comes first; a completed one is never started again.
 */
export const peppolReportingWorkflowId = (month: string) => `peppol-reporting-${month}`;

export interface PeppolReportingInput {
  month: string;
  /** Who asked: the schedule or an operator. */
  claimant: 'schedule' | 'ops';
}

/** The reports cannot be sent as they are; no retry mends it. */
export const REPORTING_REFUSED = 'ReportingRefused';
/**
 * The reports are due by the 15th: a validator, lookup or access point that is away is tried again with backoff
 * up to an hour for ten days.
 */
export const REPORTING_RETRY = {
  initialInterval: '30 seconds',
  backoffCoefficient: 2,
  maximumInterval: '1 hour',
  nonRetryableErrorTypes: [REPORTING_REFUSED],
};

/**
 * The workflows the services start, by type name, with their one input. The
 * services start them through platform/workflow-port.ts by these names, so they
 * never import workflow code (nor, through it, the activities); workflows/index.ts
 * checks that each workflow takes what is written here.
 */
export interface StartedWorkflowInputs {
  sendDocumentWorkflow: SendDocumentInput;
  webhookEndpointWorkflow: WebhookEndpointInput;
  kycReviewWorkflow: KycReviewInput;
  provisionCompanyWorkflow: ProvisionCompanyInput;
  receiveDocumentWorkflow: ReceiveDocumentInput;
  syncReceivingWorkflow: SyncReceivingInput;
  peppolReportingWorkflow: PeppolReportingInput;
  sendResponseWorkflow: SendResponseInput;
  registerServiceProviderWorkflow: RegisterServiceProviderInput;
}

/** The queue a started workflow runs on: the webhook endpoints' on their own (they wait on clients' endpoints), every other on the workflows'. */
export function workflowQueueOf(type: keyof StartedWorkflowInputs): string {
  return taskQueueOf(type === 'webhookEndpointWorkflow' ? 'webhooks' : 'workflows', TASK_QUEUE);
}

export type StartedWorkflows = {
  [Name in keyof StartedWorkflowInputs]: (input: StartedWorkflowInputs[Name]) => Promise<unknown>;
};
