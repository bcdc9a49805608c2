import type { Client } from 'openapi-fetch';

import { unwrap } from '../call';
import type { JsonBody } from '../operation-types';
import type { paths } from '../schema';

export function companies(api: Client<paths>) {
  return {
    create: (body: JsonBody<'createCompany'>) => unwrap(api.POST('/v1/companies', { body })),
    get: (id: string) => unwrap(api.GET('/v1/companies/{id}', { params: { path: { id } } })),
    /** The caller's workspace's companies (one page: the API does not page this list). */
    list: async () => (await unwrap(api.GET('/v1/companies'))).data,
  };
}
