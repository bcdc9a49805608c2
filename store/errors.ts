/** A unique index (or the primary key) refused an insert: the race was lost, the data is intact. */
export const isDuplicateKey = (err: unknown): boolean => (err as { code?: number } | null)?.code === 11000;
