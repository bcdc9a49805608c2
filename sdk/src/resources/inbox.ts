import type { Client } from 'openapi-fetch';

import { unwrap } from '../call';
import type { ListQuery } from '../operation-types';
import { paginate } from '../pagination';
import type { paths } from '../schema';

export function inbox(api: Client<paths>) {
  return {
    /** Received documents, newest first; `acknowledged: 'false'` makes it a pull queue. */
    list: (query: ListQuery<'listInbox'>) =>
      paginate((cursor) => unwrap(api.GET('/v1/inbox', { params: { query: { ...query, ...(cursor ? { cursor } : {}) } } }))),
    /** Marks a received document processed. */
    acknowledge: (id: string, companyId: string) =>
      unwrap(api.POST('/v1/documents/{id}/acknowledge', { params: { path: { id }, query: { company_id: companyId } } })),
  };
}
