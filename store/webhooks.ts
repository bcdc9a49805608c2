import { Schema, type Connection } from 'mongoose';

import type { Environment } from '../domain/environment';

/**
 * Webhooks of a workspace (for one environment each), their deliveries, and
 * how far the fan-out reconciler has come through the event log.
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

const attemptSchema = new Schema(
  {
    at: { type: Date, required: true },
    status_code: { type: Number, default: null },
    error: { type: String, default: null },
    duration_ms: { type: Number, required: true },
  },
  { _id: false },
);

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
    /** False until its delivery workflow is known to be started (the fan-out reconciler finishes the others). */
    dispatched: { type: Boolean, required: true },
    attempts: { type: [attemptSchema], default: [] },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'webhook_deliveries' },
);
deliverySchema.index({ webhook_id: 1, _id: -1 });
deliverySchema.index({ webhook_id: 1, status: 1, _id: -1 });
deliverySchema.index({ dispatched: 1, _id: 1 });
/** Stuck work (services/stuck-work.ts): pending deliveries, longest since their last attempt first. */
deliverySchema.index({ status: 1, updated_at: 1 });

/** One row (`_id: 'events'`): every event with a smaller id has been fanned out. */
const fanoutMarkSchema = new Schema(
  {
    _id: { type: String, required: true },
    event_id: { type: String, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'fanout_marks' },
);

export interface SealedSecret {
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
  description: string | null;
  secrets: SealedSecret[];
  revision: number;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

export interface DeliveryAttempt {
  at: Date;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
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
  dispatched: boolean;
  attempts: DeliveryAttempt[];
  created_at: Date;
  updated_at: Date;
}

export const webhookModel = (db: Connection) => db.model<WebhookRow>('Webhook', webhookSchema);
export const deliveryModel = (db: Connection) => db.model<DeliveryRow>('WebhookDelivery', deliverySchema);
export const fanoutMarkModel = (db: Connection) => db.model('FanoutMark', fanoutMarkSchema);
