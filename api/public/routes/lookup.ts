import { discoverParticipant, type PeppolLookup, type SmlAnswer } from '../../../platform/peppol/lookup';
import type { RateLimiter } from '../../../services/rate-limits';
import { ApiError } from '../../http/errors';
import { perIpLimit } from '../rate-limiting';
import type { ResponseSpec, RouteTable } from '../route-table';
import { dnsLookupSchema, dnsLookupView, lookupSchema, lookupView } from '../../contract/views/lookup';
import { lookupParams } from '../../contract/queries';

/**
 * Public participant lookup (reference part C): the SML step alone, and the
 * SML and SMP steps with what they mean for sending BIS Billing 3.0. Failures
 * of the SML's DNS and of the SMP become `lookup_dns_failed` and
 * `lookup_smp_failed` in api/http/errors.ts.
 */

/** Exported for the MCP server's lookup tool (mcp/tools.ts). */

// perIpLimit sets these (and their X-RateLimit-* forms) on every counted answer; public routes do not get them documented by default.
const rateLimitHeaders: ResponseSpec['headers'] = {
  'RateLimit-Limit': {
    description: 'Lookups allowed per hour from this IP address (also X-RateLimit-Limit)',
    schema: { type: 'integer' },
  },
  'RateLimit-Remaining': {
    description: 'Lookups left in the current hour (also X-RateLimit-Remaining)',
    schema: { type: 'integer' },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the hour resets (X-RateLimit-Reset: its Unix time)',
    schema: { type: 'integer' },
  },
};

function notFound(sml: SmlAnswer, why: string): ApiError {
  return new ApiError('participant_not_found', `${sml.participant.value} is not on Peppol: ${why}.`, {
    details: { zone: sml.zone, dns_name: sml.dnsName, ...(sml.smpUrl && { smp_url: sml.smpUrl }) },
  });
}

const limitNote = (lookupsPerHour: number) =>
  `At most ${lookupsPerHour} lookups per IP address per hour on this endpoint.`;

export function lookupRoutes(
  routes: RouteTable,
  lookup: PeppolLookup,
  limiter: RateLimiter,
  lookupsPerHour: number,
): void {
  lookupParticipantDnsRoute(routes, lookup, limiter, lookupsPerHour);
  lookupParticipantRoute(routes, lookup, limiter, lookupsPerHour);
}

function lookupParticipantDnsRoute(
  routes: RouteTable,
  lookup: PeppolLookup,
  limiter: RateLimiter,
  lookupsPerHour: number,
): void {
  routes.add({
    method: 'get',
    path: '/v1/lookup/{peppol_id}/dns',
    operationId: 'lookupParticipantDns',
    summary: 'Find where a Peppol participant is registered (the SML step only)',
    description:
      'No key needed. Queries the SML for the participant: the DNS name (SHA-256 of the lower-cased participant value, ' +
      'Base32, the scheme and the SML zone), the NAPTR records found and the SMP URL the `Meta:SMP` record yields. ' +
      `200 whether or not the participant is registered. ${limitNote(lookupsPerHour)}`,
    tags: ['Public'],
    public: true,
    before: [perIpLimit(limiter, 'lookup-dns', lookupsPerHour, 3_600_000, 'DNS lookups per IP address per hour')],
    params: lookupParams,
    responses: {
      200: {
        description: 'What the SML publishes for the participant',
        schema: dnsLookupSchema,
        headers: rateLimitHeaders,
      },
    },
    errors: ['invalid_peppol_id', 'rate_limit_exceeded', 'lookup_dns_failed'],
    handler: async ({ params: { peppol_id } }) => ({ status: 200, body: dnsLookupView(await lookup.sml(peppol_id)) }),
  });
}

function lookupParticipantRoute(
  routes: RouteTable,
  lookup: PeppolLookup,
  limiter: RateLimiter,
  lookupsPerHour: number,
): void {
  routes.add({
    method: 'get',
    path: '/v1/lookup/{peppol_id}',
    operationId: 'lookupParticipant',
    summary:
      'Look up a Peppol participant: where it is registered, what it can receive, and whether it can be sent an invoice and a credit note',
    description:
      'No key needed. The SML step (as `/dns`), then the SMP: the service group and every service metadata entry, each ' +
      'endpoint listed as a capability (document type, process, transport profile, endpoint URL, access point ' +
      'certificate), and `can_receive`: whether a BIS Billing 3.0 invoice and credit note can be sent now. ' +
      `404 when the participant is not registered. ${limitNote(lookupsPerHour)}`,
    tags: ['Public'],
    public: true,
    before: [perIpLimit(limiter, 'lookup', lookupsPerHour, 3_600_000, 'participant lookups per IP address per hour')],
    params: lookupParams,
    responses: {
      200: {
        description: 'The participant, its SMP entries and what they mean',
        schema: lookupSchema,
        headers: rateLimitHeaders,
      },
    },
    errors: [
      'invalid_peppol_id',
      'participant_not_found',
      'rate_limit_exceeded',
      'lookup_dns_failed',
      'lookup_smp_failed',
    ],
    handler: async ({ params: { peppol_id } }) => {
      const discovery = await discoverParticipant(lookup, peppol_id, new Date());
      if (!discovery.found) throw notFound(discovery.sml, discovery.why);
      return { status: 200, body: lookupView(discovery.sml, discovery.smp, discovery.capabilities) };
    },
  });
}
