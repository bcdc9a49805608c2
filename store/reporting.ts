import { Schema, type Connection, type InferSchemaType } from 'mongoose';

/**
 * Peppol reporting, in two collections:
 * - `peppol_reporting_items`: one row per Peppol transaction (AS4 message)
 *   and direction, with what the Peppol Reporting specifications count
 *   (domain/reporting/items.ts). The id is `<direction>:<AS4 message id>`, so
 *   recording a transaction again (an activity retried, a message repeated)
 *   is a duplicate insert and counts nothing twice.
 * - `peppol_reporting_months`: the claim on a month's reports, written before
 *   anything is sent. The id is the month (`2026-10`): a unique insert, so
 *   two senders (the schedule, an operator's `ops reporting --send`) cannot
 *   both send a month. The row keeps the reports' bytes, so a send that is
 *   retried sends the same reports under the same AS4 message ids.
 */

const reportingItemSchema = new Schema(
  {
    /** `sending:<AS4 message id>` or `receiving:<AS4 message id>`. */
    _id: { type: String, required: true },
    /** `YYYY-MM` of `exchanged_at` (UTC): the report the item counts for. */
    month: { type: String, required: true },
    exchanged_at: { type: Date, required: true },
    direction: { type: String, enum: ['sending', 'receiving'], required: true },
    as4_message_id: { type: String, required: true },
    c2_id: { type: String, required: true },
    c3_id: { type: String, required: true },
    document_type_scheme: { type: String, required: true },
    document_type_value: { type: String, required: true },
    process_scheme: { type: String, required: true },
    process_value: { type: String, required: true },
    transport_protocol: { type: String, required: true },
    c1_country: { type: String, required: true },
    c4_country: { type: String, default: null },
    /** Our company (the end user): counted as distinct, never reported. */
    end_user_id: { type: String, required: true },
    created_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'peppol_reporting_items' },
);
reportingItemSchema.index({ month: 1, _id: 1 });

const reportingMonthSchema = new Schema(
  {
    /** The month, `YYYY-MM`. */
    _id: { type: String, required: true },
    /** Who claimed it: `schedule` (the monthly workflow) or `ops`. */
    claimed_by: { type: String, required: true },
    reporter_seat: { type: String, required: true },
    receiver_id: { type: String, required: true },
    /** The reports' numbers for a person (what `ops reporting` prints). */
    summary: { type: String, required: true },
    tsr_xml: { type: String, required: true },
    eusr_xml: { type: String, required: true },
    tsr_sent_at: { type: Date, default: null },
    eusr_sent_at: { type: Date, default: null },
    created_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'peppol_reporting_months' },
);

export const reportingItemModel = (db: Connection) => db.model('PeppolReportingItem', reportingItemSchema);
export const reportingMonthModel = (db: Connection) => db.model('PeppolReportingMonth', reportingMonthSchema);
export type ReportingItemRow = InferSchemaType<typeof reportingItemSchema>;
export type ReportingMonthRow = InferSchemaType<typeof reportingMonthSchema>;
