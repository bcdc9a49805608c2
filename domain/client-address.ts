import net from 'node:net';

/**
 * The bucket a client address is counted in by per-address limits: an IPv4
 * address itself, an IPv6 address by its /64 network (one subscriber usually
 * holds a whole /64, so counting single IPv6 addresses limits nobody).
 */
export function addressBucket(address: string | undefined): string {
  if (!address) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (net.isIPv4(address)) return address;
  if (!net.isIPv6(address)) return 'unknown';
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups]
    : headGroups;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
