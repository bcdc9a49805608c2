import { Resolver } from 'node:dns/promises';

/** Ready when the stand-in's DNS answers for its zone and its SMP answers HTTP. */
export async function peppolNetworkReady(dnsServer: string, zone: string, smpUrl: string): Promise<boolean> {
  const resolver = new Resolver({ timeout: 1_000, tries: 1 });
  resolver.setServers([dnsServer]);
  const dnsAnswers = await resolver.resolveSoa(zone).then(
    () => true,
    () => false,
  );
  const smpAnswers = await fetch(smpUrl, { signal: AbortSignal.timeout(2_000) }).then(
    (response) => response.ok,
    () => false,
  );
  return dnsAnswers && smpAnswers;
}
