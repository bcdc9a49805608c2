import { Schema, type Connection } from 'mongoose';

/**
 * `message_level_statuses`: the Message Level Status our access point sends
 * about a received message (Peppol MLS 1.0), at most one per message: the id
 * is the received document's, so planning it again after a crash finds the
 * first. It moves `queued` → `sent` | `failed` under the receive workflow.
 */

const messageLevelStatusSchema = new Schema(
  {
    /** The received document's id. */
    _id: { type: String, required: true },
    company_id: { type: String, required: true },
    workspace_id: { type: String, required: true },
    environment: { type: String, enum: ['sandbox', 'live'], required: true },
    code: { type: String, enum: ['AP', 'AB', 'RE'], required: true },
    /** Participants `0242:<SPID>`: our access point, and the service provider the status goes to. */
    sender_id: { type: String, required: true },
    receiver_id: { type: String, required: true },
    /** The SBDH InstanceIdentifier of the message answered. */
    referenced_instance_id: { type: String, required: true },
    /** The SBDH's COUNTRY_C1: the receiving company's country. */
    country_c1: { type: String, required: true },
    ubl: { type: String, required: true },
    status: { type: String, enum: ['queued', 'sent', 'failed'], required: true },
    as4_message_id: { type: String, default: null },
    error_message: { type: String, default: null },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'message_level_statuses' },
);

/** `ops stuck` and the stuck-work metric: statuses still queued, longest waiting first. */
messageLevelStatusSchema.index({ status: 1, updated_at: 1 });

export const messageLevelStatusModel = (db: Connection) => db.model('MessageLevelStatus', messageLevelStatusSchema);
