import { Schema, type Connection, type InferSchemaType } from 'mongoose';

/**
 * Receiving, in two collections:
 * - `received_messages`: every inbound message exactly as it arrived (the
 *   SBD of an AS4 message, or the UBL posted to the sandbox), written before
 *   the sending access point gets its receipt and never changed after, apart
 *   from `dispatched` and `filed`. The id is the document id the message becomes;
 *   `message_key` (unique) makes a repeated AS4 message find the first one.
 *   While `dispatched` is false it is also the outbox of the receive
 *   workflow: the reconciler starts what the intake could not.
 * - `peppol_registrations`: which company a Peppol participant id is
 *   registered for in our SMP and the SML. The id is the lower-cased
 *   participant value, so one participant belongs to one company at most
 *   (a unique insert, not a check-then-write).
 */

const receivedMessageSchema = new Schema(
  {
    _id: { type: String, required: true },
    /** `<source>:<sha256 of the AS4 message id>`: one row however often a sender repeats a message. */
    message_key: { type: String, required: true, unique: true },
    message_id: { type: String, required: true },
    source: { type: String, enum: ['peppol', 'sandbox'], required: true },
    environment: { type: String, enum: ['sandbox', 'live'], required: true },
    company_id: { type: String, required: true },
    workspace_id: { type: String, required: true },
    sender_id: { type: String, default: null },
    receiver_id: { type: String, required: true },
    document_type_id: { type: String, default: null },
    process_id: { type: String, default: null },
    country_c1: { type: String, default: null },
    /** The sending access point: its seat id (AS4 From party) and certificate subject. */
    access_point: { type: String, default: null },
    access_point_certificate: { type: String, default: null },
    /** The payload as received: an SBD (peppol) or a UBL document (sandbox). */
    payload: { type: Buffer, required: true },
    /** SHA-256 of the business document (the SBD's payload; the sandbox's UBL), hex: a repeat of the message id is the same message only with it (rows from before it: null). */
    payload_sha256: { type: String, default: null },
    received_at: { type: Date, required: true },
    dispatched: { type: Boolean, required: true },
    /**
     * False from the intake until the receive workflow has filed it (as a document, or a reply on one): while
     * false it is "receiving", which the metrics and `ops stuck` watch. Absent on rows from before it existed.
     */
    filed: { type: Boolean },
  },
  { versionKey: false, collection: 'received_messages' },
);
receivedMessageSchema.index({ dispatched: 1, _id: 1 });
receivedMessageSchema.index({ filed: 1, received_at: 1 });
/** Message Level Status that named none of our sent documents are kept under the service provider, listed by `ops mls unmatched`. */
receivedMessageSchema.index({ company_id: 1, _id: -1 });

const peppolRegistrationSchema = new Schema(
  {
    /** The participant value, lower-cased (`0208:0123456749`). */
    _id: { type: String, required: true },
    company_id: { type: String, required: true },
    workspace_id: { type: String, required: true },
    /** As the company wrote it. */
    participant_id: { type: String, required: true },
    /** Full document type ids (`scheme::value`) our SMP publishes for it. */
    document_types: { type: [String], required: true },
    /** `registering` until the SML has it; our SMP serves it from the start, so the SML never points at nothing. */
    status: { type: String, enum: ['registering', 'registered'], required: true },
    /** The business card the Peppol Directory was last asked to read (its SHA-256), while it is listed there. */
    business_card: {
      type: new Schema(
        { sha256: { type: String, required: true }, published_at: { type: Date, required: true } },
        { _id: false },
      ),
      default: null,
    },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'peppol_registrations' },
);
peppolRegistrationSchema.index({ company_id: 1 });

export const receivedMessageModel = (db: Connection) => db.model('ReceivedMessage', receivedMessageSchema);
export const peppolRegistrationModel = (db: Connection) => db.model('PeppolRegistration', peppolRegistrationSchema);
export type ReceivedMessageRow = InferSchemaType<typeof receivedMessageSchema>;
export type PeppolRegistrationRow = InferSchemaType<typeof peppolRegistrationSchema>;
