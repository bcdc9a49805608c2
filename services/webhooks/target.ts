import { lookup } from 'node:dns/promises';
import net from 'node:net';

import type { Environment } from '../../domain/environment';
import { isForbiddenTarget } from '../../domain/webhooks';

/**
 * Where a webhook may send: `https:` (and `http:` outside live), no
 * credentials in the URL, and a host whose every address is allowed. The
 * addresses checked are the ones connected to (the request is pinned to
 * them), so a DNS answer that changes between the check and the connection
 * (rebinding) cannot move a delivery to another host.
 */

export interface TargetPolicy {
  environment: Environment;
  /** Loopback and private addresses allowed (local development and tests). */
  allowPrivate: boolean;
  /** Resolves a host name to its addresses (default: the system resolver). */
  resolve?: (host: string) => Promise<string[]>;
}

export type TargetCheck = { ok: true; url: URL; addresses: string[] } | { ok: false; reason: string };

const systemResolve = async (host: string) => (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

export async function checkTarget(raw: string, policy: TargetPolicy): Promise<TargetCheck> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'not an absolute URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: `${url.protocol} is not http: or https:` };
  if (url.protocol === 'http:' && policy.environment === 'live') return { ok: false, reason: 'live webhooks must use https:' };
  if (url.username || url.password) return { ok: false, reason: 'credentials in the URL are not allowed; authenticate with the signature' };
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (net.isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = await (policy.resolve ?? systemResolve)(host);
    } catch (err) {
      return { ok: false, reason: `${host} does not resolve (${(err as NodeJS.ErrnoException).code ?? 'no answer'})` };
    }
  }
  if (addresses.length === 0) return { ok: false, reason: `${host} does not resolve` };
  const forbidden = policy.allowPrivate ? [] : addresses.filter(isForbiddenTarget);
  if (forbidden.length > 0) return { ok: false, reason: `${host} resolves to ${forbidden.join(', ')}, a loopback, private, link-local or otherwise internal address` };
  return { ok: true, url, addresses };
}
