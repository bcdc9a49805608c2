import type { Client } from 'openapi-fetch';

import { unwrap } from '../call';
import type { ListQuery } from '../operation-types';
import { paginate } from '../pagination';
import type { paths } from '../schema';

export function events(api: Client<paths>) {
  return {
    /** The workspace's events, oldest first, up to now (to tail the feed, keep listing from the last `next_cursor` with the raw `api`). */
    list: (query: ListQuery<'listEvents'> = {}) =>
      paginate((cursor) =>
        unwrap(api.GET('/v1/events', { params: { query: { ...query, ...(cursor ? { cursor } : {}) } } })),
      ),
  };
}
