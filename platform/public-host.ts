import { lookup } from 'node:dns/promises';
import net from 'node:net';

import { isPublicAddress } from '../domain/public-address';

/**
 * The addresses of a host that someone else named (a webhook URL, an SMP URL
 * from the SML), judged by the address policy of domain/public-address.ts,
 * and a connection pinned to them: the addresses checked are the ones
 * connected to, so a DNS answer that changes between the check and the
 * connection (rebinding) cannot move a request to another host.
 */

export interface AddressPolicy {
  /** Loopback and private addresses allowed (local development, the embedded stack and the tests). */
  allowPrivate: boolean;
  /** Resolves a host name to its addresses (default: the system resolver). */
  resolve?: (host: string) => Promise<string[]>;
}

export type HostCheck =
  { ok: true; addresses: string[] } | { ok: false; problem: 'unresolved' | 'not_public'; reason: string };

const systemResolve = async (host: string) =>
  (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/** The addresses of the URL's host, when every one of them is allowed. */
export async function checkHost(url: URL, policy: AddressPolicy): Promise<HostCheck> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (net.isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = await (policy.resolve ?? systemResolve)(host);
    } catch (err) {
      return {
        ok: false,
        problem: 'unresolved',
        reason: `${host} does not resolve (${(err as NodeJS.ErrnoException).code ?? 'no answer'})`,
      };
    }
  }
  if (addresses.length === 0) return { ok: false, problem: 'unresolved', reason: `${host} does not resolve` };
  const refused = policy.allowPrivate ? [] : addresses.filter((address) => !isPublicAddress(address));
  if (refused.length > 0) {
    return {
      ok: false,
      problem: 'not_public',
      reason: `${host} resolves to ${refused.join(', ')}, a loopback, private, link-local or otherwise internal address`,
    };
  }
  return { ok: true, addresses };
}

/** A `lookup` for node:http(s) requests that answers the checked addresses, whatever DNS says now. */
export function pinnedLookup(addresses: string[]): net.LookupFunction {
  const entries = addresses.map((address) => ({ address, family: net.isIPv6(address) ? 6 : 4 }));
  return (_host, options, callback) => {
    if (options.all) callback(null, entries);
    else callback(null, entries[0]!.address, entries[0]!.family);
  };
}
