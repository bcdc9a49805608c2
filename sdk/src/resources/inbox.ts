import type { Client } from 'openapi-fetch';

import { unwrap } from '../call';
import type { ListQuery, Query } from '../operation-types';
import { paginate } from '../pagination';
import type { paths } from '../schema';

export function inbox(api: Client<paths>) {
  const page = (query: Query<'listInbox'>) => unwrap(api.GET('/v1/inbox', { params: { query } }));
  return {
    /** Received documents, newest first; `acknowledged: 'false'` makes it a pull queue. */
    list: (query: ListQuery<'listInbox'>) => paginate((cursor) => page({ ...query, ...(cursor ? { cursor } : {}) })),
    /** One page as the API answers it, for a caller that keeps `next_cursor` itself. */
    page,
    /** Marks a received document processed. */
    acknowledge: (id: string, companyId: string) =>
      unwrap(
        api.POST('/v1/documents/{id}/acknowledge', { params: { path: { id }, query: { company_id: companyId } } }),
      ),
  };
}
