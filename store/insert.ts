import type { Model, mongo } from 'mongoose';

/** The plain row type of a model. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- only the row type is of interest; the rest of Model's parameters are anything
type RowOf<M> = M extends Model<infer T, any, any, any, any, any, any> ? T : never;

/**
 * Inserts a row that its caller built whole, as it is: no document instance,
 * casting or validation. For the rows written on every request (rate slots,
 * documents and their parts, events), where mongoose's own work per insert
 * costs more than the database does.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see RowOf
export async function insertRow<M extends Model<any>>(
  model: M,
  row: RowOf<M>,
  options?: mongo.InsertOneOptions,
): Promise<void> {
  await model.collection.insertOne(row, options);
}

/** Several such rows in one unordered insert: the rows that can go in do; a failure names the others (`writeErrors`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see RowOf
export async function insertRows<M extends Model<any>>(model: M, rows: RowOf<M>[]): Promise<void> {
  await model.collection.insertMany(rows, { ordered: false });
}
