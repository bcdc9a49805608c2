/** One page of a cursor-paged list, as every such list of the API answers. */
export interface Page<Item> {
  data: Item[];
  has_more: boolean;
  next_cursor?: string | null;
}

/**
 * Every item of a cursor-paged list, page after page, fetched as the caller
 * iterates (`for await`); stops when a page says there is no more. Breaking
 * out of the loop fetches nothing further.
 */
export async function* paginate<Item>(
  fetchPage: (cursor: string | undefined) => Promise<Page<Item>>,
): AsyncGenerator<Item, void, undefined> {
  let cursor: string | undefined;
  for (;;) {
    const page = await fetchPage(cursor);
    yield* page.data;
    if (!page.has_more || !page.next_cursor) return;
    cursor = page.next_cursor;
  }
}
