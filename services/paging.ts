/**
 * Cursor paging, one way for every list: a query asks for `limit + 1` rows
 * ordered by a unique, creation-ordered id; the extra row only tells that
 * another page exists, and the last id shown is where the next page starts.
 */
export interface Page<T> {
  items: T[];
  hasMore: boolean;
  /** Id of the last item shown; the next page starts after it. */
  last: string | null;
}

export function pageOf<T extends { _id: string }>(rows: T[], limit: number): Page<T> {
  const items = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  return { items, hasMore, last: hasMore ? items[items.length - 1]!._id : null };
}
