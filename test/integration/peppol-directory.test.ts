import { readBusinessCard } from '../../domain/peppol/directory';
import { businessCardPublishing, type NetworkRegistrationError } from '../../platform/peppol/network-registration';
import { receivingWorkflowId } from '../../workflows/shared';
import { callAs } from '../support/accounts';
import { ops } from '../support/ops';
import { liveReceiver, uniqueBelgianPeppolId } from '../support/receiving';
import { until } from '../support/until';
import { sharedTemporalClient } from '../support/temporal';
import { sharedStack } from '../support/test-stack';

/**
 * The Peppol Directory on the real stack: our SMP serves a registered
 * company's business card, our access point tells the stand-in Directory
 * (with the SMP certificate), and the Directory reads the card from our SMP
 * and lists it; a change of the card is read again, opting out or going away
 * drops it.
 */

const temporal = sharedTemporalClient();

interface Match {
  participantID: { value: string };
  entities: { name: { name: string }[]; countryCode: string; identifiers: { scheme: string; value: string }[] }[];
}

/** What the stand-in Directory's search finds for a participant. */
async function listed(peppolId: string): Promise<Match[]> {
  const answer = (await (
    await fetch(`${sharedStack().peppol.smp}/stand-in/directory?q=${encodeURIComponent(peppolId)}`)
  ).json()) as { matches: Match[] };
  return answer.matches.filter((match) => match.participantID.value.toLowerCase() === peppolId.toLowerCase());
}

async function ourSmpUrl(): Promise<string> {
  const health = (await (await fetch(`${sharedStack().accessPointUrl}/health`)).json()) as { sml: { smpUrl: string } };
  return health.sml.smpUrl;
}

const servedCard = async (peppolId: string) =>
  fetch(`${await ourSmpUrl()}/businesscard/${encodeURIComponent(`iso6523-actorid-upis::${peppolId}`)}`);

const listing = async (key: string, companyId: string) =>
  (await callAs(key, `/v1/companies/${companyId}`)).body.directory_listing as {
    status: string;
    updated_at: string;
  } | null;

describe('the Peppol Directory', () => {
  it('when a company is registered as a receiver, then the Directory lists its business card, read from our SMP; a new name is read again; opting out drops it, opting in lists it again', async () => {
    const receiver = await liveReceiver({ tax_id: 'BE0765432146' });
    const published = await until(
      'the listing',
      () => listing(receiver.key, receiver.companyId),
      (value) => value?.status === 'published',
    );

    const [match] = await listed(receiver.peppolId);
    expect(match?.entities).toEqual([
      {
        name: [{ name: 'Acme BV' }],
        countryCode: 'BE',
        identifiers: [{ scheme: 'vat', value: 'BE0765432146' }],
        regDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      },
    ]);
    const served = await servedCard(receiver.peppolId);
    expect(served.status).toBe(200);
    expect(readBusinessCard(await served.text())).toEqual([
      expect.objectContaining({ participant: receiver.peppolId, name: 'Acme BV', country: 'BE' }),
    ]);

    // The card shows the verified legal name: a rename waits for the operator's review, then is read again.
    expect(
      (
        await callAs(receiver.key, `/v1/companies/${receiver.companyId}`, {
          method: 'PATCH',
          body: { name: 'Acme Renamed BV' },
        })
      ).status,
    ).toBe(200);
    await until(
      'the rename reviewed',
      () => callAs(receiver.key, `/v1/companies/${receiver.companyId}`),
      (response) => response.body.participant_review?.status === 'pending',
    );
    expect(readBusinessCard(await (await servedCard(receiver.peppolId)).text())).toEqual([
      expect.objectContaining({ name: 'Acme BV' }),
    ]);
    expect((await listed(receiver.peppolId))[0]?.entities[0]?.name).toEqual([{ name: 'Acme BV' }]);
    expect(await ops('participants', 'approve', receiver.companyId)).toMatchObject({ code: 0 });
    await until(
      'the new name listed',
      () => listed(receiver.peppolId),
      (matches) => matches[0]?.entities[0]?.name[0]?.name === 'Acme Renamed BV',
    );
    // The Directory may show the new name a moment before the workflow records that it told it.
    await until(
      'the listing updated',
      () => listing(receiver.key, receiver.companyId),
      (value) => value?.status === 'published' && value.updated_at !== published?.updated_at,
    );

    expect(
      (
        await callAs(receiver.key, `/v1/companies/${receiver.companyId}`, {
          method: 'PATCH',
          body: { directory: false },
        })
      ).body.directory,
    ).toBe(false);
    await until(
      'the listing withdrawn',
      () => listing(receiver.key, receiver.companyId),
      (value) => value?.status === 'withdrawn',
    );
    expect(await listed(receiver.peppolId)).toEqual([]);
    expect((await servedCard(receiver.peppolId)).status).toBe(404);

    await callAs(receiver.key, `/v1/companies/${receiver.companyId}`, { method: 'PATCH', body: { directory: true } });
    await until(
      'listed again',
      () => listed(receiver.peppolId),
      (matches) => matches.length === 1,
    );
    expect((await callAs(receiver.key, '/v1/companies/' + receiver.companyId)).body.receiving.status).toBe(
      'registered',
    );
  }, 180_000);

  it('when a company that opted out is registered, then our SMP serves no card and the Directory never lists it', async () => {
    const receiver = await liveReceiver({ directory: false });
    // The registration workflow has run to its end: nothing more will be sent.
    await temporal().workflow.getHandle(receivingWorkflowId(receiver.companyId)).result();
    const company = (await callAs(receiver.key, `/v1/companies/${receiver.companyId}`)).body;
    expect(company).toMatchObject({ directory: false, directory_listing: null, receiving: { status: 'registered' } });
    expect(await listed(receiver.peppolId)).toEqual([]);
    expect((await servedCard(receiver.peppolId)).status).toBe(404);
  }, 180_000);

  it('when a listed company is deleted, then its card leaves the Directory with its registration', async () => {
    const receiver = await liveReceiver();
    await until(
      'the listing',
      () => listing(receiver.key, receiver.companyId),
      (value) => value?.status === 'published',
    );
    expect((await callAs(receiver.key, `/v1/companies/${receiver.companyId}`, { method: 'DELETE' })).status).toBe(200);
    await until(
      'the card gone',
      () => listed(receiver.peppolId),
      (matches) => matches.length === 0,
    );
    expect((await servedCard(receiver.peppolId)).status).toBe(404);
  }, 180_000);

  it('when the Directory cannot read a card (the participant is not registered in the SML), then our access point says so as a final refusal', async () => {
    const error = await businessCardPublishing(sharedStack().accessPointUrl)
      .publish(uniqueBelgianPeppolId())
      .then(
        () => undefined,
        (err: unknown) => err as NetworkRegistrationError,
      );
    expect(error).toMatchObject({
      permanent: true,
      message: expect.stringMatching(
        /^publishing the business card of 0208:\d+ in the Peppol Directory: the Peppol Directory answered HTTP 404/,
      ),
    });
  });
});
