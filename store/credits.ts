import { Schema, type Connection, type InferSchemaType } from 'mongoose';

/**
 * The credit ledger, append-only: every top-up, reservation (a live document
 * accepted) and release (a live document failed), in ten-thousandths of a
 * euro, signed. A workspace's balance is the sum of its entries (plus any
 * operation applied to the balance but not yet copied here; see
 * services/credits). The `_id` is the operation's id, so an operation is
 * recorded once however often it is retried.
 */
const ledgerSchema = new Schema(
  {
    /** `topup:<id>`, `reserve:<document id>` or `release:<document id>`. */
    _id: { type: String, required: true },
    workspace_id: { type: String, required: true },
    kind: { type: String, enum: ['top_up', 'reservation', 'release'], required: true },
    amount_units: { type: Number, required: true },
    document_id: { type: String, default: null },
    /** Who made it: an operator name for top-ups, the sending account for reservations. */
    actor: { type: String, default: null },
    created_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'credit_ledger' },
);
ledgerSchema.index({ workspace_id: 1, _id: 1 });

export const creditLedgerModel = (db: Connection) => db.model('CreditLedgerEntry', ledgerSchema);
export type CreditLedgerRow = InferSchemaType<typeof ledgerSchema>;
