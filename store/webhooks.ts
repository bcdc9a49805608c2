import { Schema, type Connection } from 'mongoose';

import type { Environment } from '../domain/environment';

/**
 * Webhooks of a workspace (for one environment each), their deliveries (one per event and webhook), each
 * delivery's attempts (one row per try), and how far the fan-out reconciler has come through the event log.
 */

const secretSchema = new Schema(
  {
    /** The signing secret, sealed (domain/secret-box.ts): never stored or logged in the clear. */
    sealed: { type: String, required: true },
    created_at: { type: Date, required: true },
    /** Set when a newer secret replaced this one: it keeps signing until then (24-hour overlap). */
    expires_at: { type: Date, default: null },
  },
  { _id: false },
);

const webhookSchema = new Schema(
  {
    _id: { type: String, required: true },
    workspace_id: { type: String, required: true },
    environment: { type: String, enum: ['sandbox', 'live'], required: true },
    url: { type: String, required: true },
    events: { type: [String], required: true },
    enabled: { type: Boolean, default: true },
    /** Why the service disabled it (its endpoint failed for the disable period); null when enabled or disabled by its owner. */
    disabled_reason: { type: String, default: null },
    description: { type: String, default: null },
    /** Newest first; at most two, the older one with `expires_at`. */
    secrets: { type: [secretSchema], required: true },
    /** Raised by every change: changes are conditional on the revision read (compare-and-set). */
    revision: { type: Number, required: true },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    deleted_at: { type: Date, default: null },
  },
  { versionKey: false, collection: 'webhooks' },
);
webhookSchema.index({ workspace_id: 1, environment: 1, _id: 1 });

const deliverySchema = new Schema(
  {
    /** `whd_` + time + randomness: a webhook's deliveries list newest first by id. */
    _id: { type: String, required: true },
    /** `<event id>:<webhook id>`: one delivery per event and webhook, however often the fan-out runs. */
    dedupe_key: { type: String, required: true, unique: true },
    webhook_id: { type: String, required: true },
    workspace_id: { type: String, required: true },
    event_id: { type: String, required: true },
    event_type: { type: String, required: true },
    /** The exact JSON body every attempt sends and signs. */
    body: { type: String, required: true },
    status: { type: String, enum: ['pending', 'succeeded', 'failed'], required: true },
    /** While pending: when its next attempt is due (its endpoint's workflow attempts it then, or when its breaker lets it). */
    next_attempt_at: { type: Date, default: null },
    /** Attempts since it was made or last redelivered: the fifth failed one puts it in the dead-letter queue. */
    round_attempts: { type: Number, default: 0 },
    /** Attempts in all, every round. */
    attempt_count: { type: Number, default: 0 },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'webhook_deliveries' },
);
deliverySchema.index({ webhook_id: 1, _id: -1 });
/** An endpoint's due deliveries, oldest first (and a status filter of the list). */
deliverySchema.index({ webhook_id: 1, status: 1, _id: -1 });
/** When an endpoint's next delivery is due. */
deliverySchema.index({ webhook_id: 1, status: 1, next_attempt_at: 1 });
/** The reconciler: endpoints with deliveries overdue (their workflow not woken). */
deliverySchema.index({ status: 1, next_attempt_at: 1 });
/** Stuck work (services/stuck-work.ts): pending deliveries, longest since their last attempt first. */
deliverySchema.index({ status: 1, updated_at: 1 });

/** One try of a delivery: what the endpoint answered, how long it took, and when the next try was due. */
const attemptSchema = new Schema(
  {
    /** `wha_` + time + randomness: a delivery's attempts list in order by id. */
    _id: { type: String, required: true },
    delivery_id: { type: String, required: true },
    webhook_id: { type: String, required: true },
    /** 1 for the first attempt ever, counting on over redeliveries. */
    number: { type: Number, required: true },
    at: { type: Date, required: true },
    outcome: { type: String, enum: ['succeeded', 'failed'], required: true },
    status_code: { type: Number, default: null },
    /** The start of the endpoint's answer, as text (at most 256 characters). */
    response_excerpt: { type: String, default: null },
    error: { type: String, default: null },
    duration_ms: { type: Number, required: true },
    /** When the next attempt was due after this one; null after a success and after the last attempt. */
    next_attempt_at: { type: Date, default: null },
  },
  { versionKey: false, collection: 'webhook_attempts' },
);
attemptSchema.index({ delivery_id: 1, _id: 1 });

/** One row (`_id: 'events'`): every event with a smaller id has been fanned out. */
const fanoutMarkSchema = new Schema(
  {
    _id: { type: String, required: true },
    event_id: { type: String, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'fanout_marks' },
);

interface SealedSecret {
  sealed: string;
  created_at: Date;
  expires_at: Date | null;
}

export interface WebhookRow {
  _id: string;
  workspace_id: string;
  environment: Environment;
  url: string;
  events: string[];
  enabled: boolean;
  disabled_reason?: string | null;
  description: string | null;
  secrets: SealedSecret[];
  revision: number;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

export interface AttemptRow {
  _id: string;
  delivery_id: string;
  webhook_id: string;
  number: number;
  at: Date;
  outcome: 'succeeded' | 'failed';
  status_code: number | null;
  response_excerpt: string | null;
  error: string | null;
  duration_ms: number;
  next_attempt_at: Date | null;
}

export interface DeliveryRow {
  _id: string;
  dedupe_key: string;
  webhook_id: string;
  workspace_id: string;
  event_id: string;
  event_type: string;
  body: string;
  status: 'pending' | 'succeeded' | 'failed';
  next_attempt_at: Date | null;
  round_attempts: number;
  attempt_count: number;
  created_at: Date;
  updated_at: Date;
}

export const webhookModel = (db: Connection) => db.model<WebhookRow>('Webhook', webhookSchema);
export const deliveryModel = (db: Connection) => db.model<DeliveryRow>('WebhookDelivery', deliverySchema);
export const attemptModel = (db: Connection) => db.model<AttemptRow>('WebhookAttempt', attemptSchema);
export const fanoutMarkModel = (db: Connection) => db.model('FanoutMark', fanoutMarkSchema);
