/** The two environments of the service; the host a request arrives on selects one. */
export type Environment = 'sandbox' | 'live';

/** `Host` may carry a port (`live.localhost:3000`); hosts compare case-insensitively. */
export function environmentForHost(hostHeader: string | undefined, liveHosts: readonly string[]): Environment {
  const host = (hostHeader ?? '').trim().toLowerCase().replace(/:\d+$/, '');
  return liveHosts.includes(host) ? 'live' : 'sandbox';
}
