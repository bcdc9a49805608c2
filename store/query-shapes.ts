import type { MongooseQueryMiddleware, Schema } from 'mongoose';

/**
 * Every query the service runs must be served by an index declared in
 * store/, so that no request or activity pays a cost that grows with the
 * stored data: on MongoDB, an index scan instead of a collection scan, and a
 * sort read off the index instead of sorted in memory; on the embedded
 * FerretDB build, the same indexes are what its pushdown uses.
 *
 * `servedBy` is the rule, tested on its own; the guard applies it to every
 * query a process runs when the process asks for it (the embedded stack and
 * the tests do), so any query shape without its index fails loudly.
 */

type IndexKey = [field: string, direction: 1 | -1][];

interface QueryShape {
  /** Fields compared for equality (a value, `$eq` or `$in`). */
  equality: string[];
  /** Fields compared with `$gt`, `$gte`, `$lt` or `$lte`. */
  ranges: string[];
  sort: IndexKey;
}

const RANGE_OPERATORS = new Set(['$gt', '$gte', '$lt', '$lte']);
const EQUALITY_OPERATORS = new Set(['$eq', '$in']);

function isOperatorObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Date) &&
    Object.keys(value).every((key) => key.startsWith('$'))
  );
}

/** @internal */
export function shapeOf(filter: Record<string, unknown>, sort: Record<string, unknown> | undefined): QueryShape {
  const equality: string[] = [];
  const ranges: string[] = [];
  for (const [field, condition] of Object.entries(filter)) {
    if (field.startsWith('$')) continue;
    if (!isOperatorObject(condition)) equality.push(field);
    else if (Object.keys(condition).some((operator) => EQUALITY_OPERATORS.has(operator))) equality.push(field);
    else if (Object.keys(condition).some((operator) => RANGE_OPERATORS.has(operator))) ranges.push(field);
  }
  const sortKey: IndexKey = Object.entries(sort ?? {}).map(([field, direction]) => [
    field,
    direction === -1 || direction === 'desc' ? -1 : 1,
  ]);
  return { equality, ranges, sort: sortKey };
}

/**
 * Whether the index finds the matching rows without a scan and returns them
 * in the requested order: its leading keys are equality fields; the sort
 * follows them in the index's order (or all reversed); a range may take the
 * next key. The `_id` index serves every equality on `_id`.
 * @internal
 */
export function servedBy(shape: QueryShape, index: IndexKey): boolean {
  if (shape.equality.includes('_id') && index.length === 1 && index[0]![0] === '_id') return true;
  let position = 0;
  while (position < index.length && shape.equality.includes(index[position]![0])) position += 1;
  const prefixLength = position;
  // Sorting on a field fixed by equality orders nothing.
  const sort = shape.sort.filter(([field]) => !shape.equality.includes(field));
  if (sort.length > 0) {
    const following = index.slice(position, position + sort.length);
    if (following.length < sort.length || following.some(([field], i) => field !== sort[i]![0])) return false;
    const sameDirection = following.every(([, direction], i) => direction === sort[i]![1]);
    const reversed = following.every(([, direction], i) => direction === -sort[i]![1]);
    if (!sameDirection && !reversed) return false;
  }
  const usesIndex =
    prefixLength > 0 ||
    (sort.length > 0 && index[0]![0] === sort[0]![0]) ||
    (index[0] !== undefined && shape.ranges.includes(index[0][0]));
  return usesIndex;
}

/** @internal */
export function declaredIndexes(schema: Schema): IndexKey[] {
  const declared = schema
    .indexes()
    .map(
      ([fields]) => Object.entries(fields).map(([field, direction]) => [field, direction === -1 ? -1 : 1]) as IndexKey,
    );
  const unique = Object.entries(schema.paths)
    .filter(([, path]) => (path.options as { unique?: boolean }).unique === true)
    .map(([field]) => [[field, 1]] as IndexKey);
  return [[['_id', 1]], ...declared, ...unique];
}

class UnindexedQueryError extends Error {
  override name = 'UnindexedQueryError';
}

let enforcing = false;

/** Turns the guard on for this process (the embedded stack and the tests do; production leaves it off). */
export function enforceIndexedQueries(on: boolean): void {
  enforcing = on;
}

const GUARDED_OPERATIONS: MongooseQueryMiddleware[] = [
  'find',
  'findOne',
  'countDocuments',
  'updateOne',
  'updateMany',
  'deleteOne',
  'deleteMany',
  'findOneAndUpdate',
  'findOneAndDelete',
  'replaceOne',
];

/** Mongoose plugin: applied to every schema, active only while enforcing. */
export function indexedQueriesOnly(schema: Schema): void {
  // Read once, at the first query: every index is declared when its model's module loads.
  let declared: IndexKey[] | undefined;
  const indexes = () => (declared ??= declaredIndexes(schema));
  schema.pre(
    GUARDED_OPERATIONS,
    function guard(this: {
      getFilter(): Record<string, unknown>;
      getOptions(): { sort?: Record<string, unknown> };
      model: { collection: { name: string } };
    }) {
      if (!enforcing) return;
      const shape = shapeOf(this.getFilter(), this.getOptions().sort);
      if (!indexes().some((index) => servedBy(shape, index))) {
        throw new UnindexedQueryError(
          `no declared index serves this query on ${this.model.collection.name}: equality ${JSON.stringify(shape.equality)}, ranges ${JSON.stringify(shape.ranges)}, sort ${JSON.stringify(shape.sort)}`,
        );
      }
    },
  );
}
