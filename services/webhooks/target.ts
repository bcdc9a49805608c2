import type { Environment } from '../../domain/environment';
import { checkHost, type AddressPolicy } from '../../platform/public-host';

/**
 * Where a webhook may send: `https:` (and `http:` outside live), no
 * credentials in the URL, and a host whose every address is allowed
 * (platform/public-host.ts). The addresses checked are the ones connected
 * to (the request is pinned to them).
 */

export interface TargetPolicy extends AddressPolicy {
  environment: Environment;
}

export type TargetCheck = { ok: true; url: URL; addresses: string[] } | { ok: false; reason: string };

export async function checkTarget(raw: string, policy: TargetPolicy): Promise<TargetCheck> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'not an absolute URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { ok: false, reason: `${url.protocol} is not http: or https:` };
  if (url.protocol === 'http:' && policy.environment === 'live')
    return { ok: false, reason: 'live webhooks must use https:' };
  if (url.username || url.password)
    return { ok: false, reason: 'credentials in the URL are not allowed; authenticate with the signature' };
  const host = await checkHost(url, policy);
  return host.ok ? { ok: true, url, addresses: host.addresses } : { ok: false, reason: host.reason };
}
