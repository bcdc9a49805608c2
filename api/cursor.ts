import { invalidField } from './validation';

/** Cursors are opaque to clients: base64url of the last id of a page. */
export const encodeCursor = (id: string) => Buffer.from(id, 'utf8').toString('base64url');

export function decodeCursor(cursor: string | undefined, idShape: RegExp): string | undefined {
  if (cursor === undefined) return undefined;
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!idShape.test(id)) throw invalidField('cursor', 'cursor is not a next_cursor returned by this list.');
  return id;
}
