import net from 'node:net';

/**
 * Which IP addresses the service may connect to when someone else names the
 * host (a webhook URL, an SMP URL published in the SML): public unicast
 * only. This host, private and shared networks, link-local (cloud metadata
 * services live at 169.254.169.254 and fd00:ec2::254), multicast,
 * documentation and other reserved ranges are refused, also when an IPv6
 * address carries one of them as an embedded IPv4 address.
 */

const blockList = (family: 'ipv4' | 'ipv6', subnets: readonly (readonly [string, number])[]) => {
  const list = new net.BlockList();
  for (const [network, prefix] of subnets) list.addSubnet(network, prefix, family);
  return list;
};

const NOT_PUBLIC_IPV4 = blockList('ipv4', [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared (carrier-grade NAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
]);

/**
 * Only 2000::/3 is global unicast: everything outside it is refused as a
 * whole (unspecified, loopback, unique-local fc00::/7, link-local fe80::/10,
 * site-local fec0::/10, multicast ff00::/8, discard-only 100::/64, the NAT64
 * local-use prefix 64:ff9b:1::/48, whose translator is a local one), and
 * inside it the ranges that are never reachable.
 */
const NOT_PUBLIC_IPV6 = blockList('ipv6', [
  ['::', 3],
  ['4000::', 2],
  ['8000::', 1],
  ['2001:2::', 48], // benchmarking
  ['2001:10::', 28], // ORCHID (deprecated)
  ['2001:20::', 28], // ORCHIDv2
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
]);

/** The eight 16-bit groups of an address net.isIPv6 accepts (`::` expanded, a dotted IPv4 tail as two groups). */
function ipv6Groups(address: string): number[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  const text = dotted
    ? `${address.slice(0, dotted.index)}${((Number(dotted[1]) << 8) | Number(dotted[2])).toString(16)}:${((Number(dotted[3]) << 8) | Number(dotted[4])).toString(16)}`
    : address;
  const groups = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const [head, tail] = text.split('::');
  if (tail === undefined) return groups(head);
  const [high, low] = [groups(head), groups(tail)];
  return [...high, ...new Array<number>(8 - high.length - low.length).fill(0), ...low];
}

const ipv4 = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255].join('.');
const zeros = (groups: number[]) => groups.every((group) => group === 0);

/**
 * The IPv4 address an IPv6 address stands for: IPv4-mapped ::ffff:0:0/96,
 * IPv4-compatible ::/96 (deprecated, still routed by some stacks) and the
 * well-known NAT64 prefix 64:ff9b::/96. Such an address is judged by its
 * IPv4 address alone.
 */
function translatedIpv4(g: number[]): string | undefined {
  const mappedOrCompatible = zeros(g.slice(0, 5)) && (g[5] === 0xffff || g[5] === 0);
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && zeros(g.slice(2, 6));
  return mappedOrCompatible || nat64 ? ipv4(g[6]!, g[7]!) : undefined;
}

/**
 * The IPv4 addresses a tunnelled IPv6 address leads to: 6to4 2002::/16
 * (the site's IPv4 address in groups 1 and 2) and Teredo 2001::/32 (its
 * server in groups 2 and 3, its client inverted in groups 6 and 7).
 */
function tunnelledIpv4(g: number[]): string[] {
  if (g[0] === 0x2002) return [ipv4(g[1]!, g[2]!)];
  if (g[0] === 0x2001 && g[1] === 0) return [ipv4(g[2]!, g[3]!), ipv4(~g[6]! & 0xffff, ~g[7]! & 0xffff)];
  return [];
}

/** Whether the service may connect to this IP address when someone else chose it; anything that is not an IP address is not. */
export function isPublicAddress(address: string): boolean {
  if (net.isIPv4(address)) return !NOT_PUBLIC_IPV4.check(address, 'ipv4');
  // A zone index (`fe80::1%eth0`) only ever names a link-local scope.
  if (!net.isIPv6(address) || address.includes('%')) return false;
  const groups = ipv6Groups(address);
  const translated = translatedIpv4(groups);
  if (translated) return isPublicAddress(translated);
  return !NOT_PUBLIC_IPV6.check(address, 'ipv6') && tunnelledIpv4(groups).every(isPublicAddress);
}
