import type { ZodType } from 'zod';

import type { Page } from '../../services/paging';
import { z } from '../contract/openapi';
import { invalidField } from './validation';

/**
 * Cursor-paginated lists, one way: `{data, has_more, next_cursor}`, the
 * cursor opaque to clients (base64url of the last id of a page).
 */

export const encodeCursor = (id: string) => Buffer.from(id, 'utf8').toString('base64url');

/** The id a `next_cursor` stands for; a cursor this list did not hand out is 400. */
export function decodeCursor(cursor: string | undefined, idShape: RegExp): string | undefined {
  if (cursor === undefined) return undefined;
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!idShape.test(id)) throw invalidField('cursor', 'cursor is not a next_cursor returned by this list.');
  return id;
}

export const pageSchema = <T extends ZodType>(item: T, name: string) =>
  z.object({ data: z.array(item), has_more: z.boolean(), next_cursor: z.string().nullable() }).openapi(name);

export function pageView<Row extends { _id: string }, View>(page: Page<Row>, view: (row: Row) => View) {
  return { data: page.items.map(view), has_more: page.hasMore, next_cursor: page.last && encodeCursor(page.last) };
}
