import type { Client } from 'openapi-fetch';

import { unwrap } from '../call';
import type { JsonBody } from '../operation-types';
import type { paths } from '../schema';

/** Signup: the account, its personal workspace and a sandbox key (shown once). Needs no key. */
export const signup = (api: Client<paths>) => (body: JsonBody<'signup'>) => unwrap(api.POST('/v1/signup', { body }));

/** Where a Peppol participant receives (SML, SMP, certificates), as a sending access point would find it. Needs no key. */
export const lookup = (api: Client<paths>) => (peppolId: string) =>
  unwrap(api.GET('/v1/lookup/{peppol_id}', { params: { path: { peppol_id: peppolId } } }));
