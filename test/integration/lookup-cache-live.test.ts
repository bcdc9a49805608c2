import { smlDnsName } from '../../domain/peppol/sml';
import { validFixtures } from '../fixtures/documents';
import { callAs, fakeClientIp } from '../support/accounts';
import { LIVE, liveSender, postLive, waitForStatus } from '../support/documents';
import { callApi } from '../support/http';
import { ops } from '../support/ops';
import { liveReceiver } from '../support/receiving';
import { until } from '../support/until';
import { sharedStack } from '../support/test-stack';

/**
 * The sending worker's lookup cache on the local Peppol network: live
 * documents to one receiver (a company of ours, registered in our SMP and the
 * stand-in SML, so no other test asks for its name) ask the SML's DNS once,
 * counted by the stand-in's DNS server; after its registration is deleted
 * and the cache's maximum (PEPPOL_LOOKUP_CACHE_SECONDS, 10 s on the test
 * stack) has passed, the next send asks again and sees it gone.
 */

const invoice = validFixtures.find((candidate) => candidate.name === 'standard rate S, one line')!.body;

async function dnsQueriesFor(participantValue: string): Promise<number> {
  const { smp, zone } = sharedStack().peppol;
  const response = await fetch(
    `${smp}/stand-in/dns-queries?name=${encodeURIComponent(smlDnsName(participantValue, zone))}`,
  );
  return ((await response.json()) as { queries: number }).queries;
}

describe("the sending worker's lookup cache", () => {
  it('when two live documents go to one receiver, then the SML is asked once; after its registration is deleted and the cache maximum has passed, the next send asks again and fails saying it is not on Peppol', async () => {
    const receiver = await liveReceiver();
    const sender = await liveSender();
    expect((await ops('credits', 'add', sender.workspaceId, '5.00')).code).toBe(0);
    const send = (number: string) =>
      postLive(sender.liveKey, {
        ...invoice,
        company_id: sender.companyId,
        number,
        to: { ...(invoice.to as object), peppol_id: receiver.peppolId },
      });

    const before = await dnsQueriesFor(receiver.peppolId);
    const posted = [await send('CACHE-1'), await send('CACHE-2')];
    for (const { status, body } of posted) {
      expect(status).toBe(202);
      expect(
        await waitForStatus(sender.liveKey, body.id, sender.companyId, ['delivered', 'failed'], 60_000, { host: LIVE }),
      ).toMatchObject({ status: 'delivered' });
    }
    expect(await dnsQueriesFor(receiver.peppolId)).toBe(before + 1);
    // The worker kept its answers from when it looked them up, before the first delivery; on a loaded machine that can be
    // seconds after the first POST, so the cache's maximum is counted from now, when both are delivered.
    const lookedUpBy = Date.now();

    // A changed registration: deleting the company removes its NAPTR record (seen here by the public lookup, which keeps nothing).
    expect((await callAs(receiver.key, `/v1/companies/${receiver.companyId}`, { method: 'DELETE' })).status).toBe(200);
    await until(
      'the NAPTR record',
      () => callApi(`/v1/lookup/${receiver.peppolId}/dns`, { headers: { 'X-Forwarded-For': fakeClientIp() } }),
      (response) => response.body.registered === false,
    );
    const expired = lookedUpBy + sharedStack().lookupCacheSeconds * 1000 + 500;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expired - Date.now())));

    const asked = await dnsQueriesFor(receiver.peppolId);
    const third = await send('CACHE-3');
    expect(third.status).toBe(202);
    const failed = await waitForStatus(
      sender.liveKey,
      third.body.id,
      sender.companyId,
      ['delivered', 'failed'],
      60_000,
      { host: LIVE },
    );
    expect(failed).toMatchObject({
      status: 'failed',
      error_message: expect.stringContaining(`The receiver ${receiver.peppolId} is not on the Peppol network`),
    });
    expect(await dnsQueriesFor(receiver.peppolId)).toBe(asked + 1);
  }, 180_000);
});
