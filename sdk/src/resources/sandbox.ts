import type { Client } from 'openapi-fetch';

import { unwrap } from '../call';
import type { paths } from '../schema';

export function sandbox(api: Client<paths>) {
  return {
    /** Files a UBL Invoice or CreditNote as received by the company its buyer EndpointID names (sandbox keys only), to try inbox handling. */
    receive: (ubl: string) =>
      unwrap(
        api.POST('/v1/sandbox/inbound', {
          body: ubl,
          bodySerializer: (xml: string) => xml,
          headers: { 'Content-Type': 'application/xml' },
        }),
      ),
  };
}
