import path from 'node:path';

import { localPkiFiles } from '../../stack/peppol-access-points';
import { callAs, signUp, withStore } from '../support/accounts';
import { startOtherSmp, type OtherSmp } from '../support/other-smp';
import { liveReceiver, smlRecord, uniqueBelgianPeppolId } from '../support/receiving';
import { until } from '../support/until';
import { sharedStack } from '../support/test-stack';

/**
 * A company changing Peppol provider with its participant id, on the real
 * stack: the stand-in SML moves the participant between our SMP and another
 * provider's (an access point of its own, with another SMP ID and
 * certificate) with a migration key, both ways.
 */

const otherProvider = { smpId: 'SMP-OTHER-PROVIDER' };
let other: OtherSmp;

beforeAll(async () => {
  other = await startOtherSmp({
    ...otherProvider,
    keystore: localPkiFiles(path.join(sharedStack().dataDir, 'peppol-pki')).receiverKeystore,
  });
}, 120_000);
afterAll(() => other.close());

/** Asks the other provider's access point to do something in the SML as its SMP. */
const asOtherProvider = (participant: string, what: 'register' | 'migrate' | 'prepare', migrationKey?: string) =>
  fetch(`${other.url}/sml/participants/${participant}${what === 'prepare' ? '/migration-key' : ''}`, {
    method: 'PUT',
    ...(migrationKey && { body: JSON.stringify({ migrationKey }) }),
  }).then(async (response) => ({
    status: response.status,
    body: (await response.json()) as { status?: string; error?: string },
  }));

const company = async (key: string, companyId: string) => (await callAs(key, `/v1/companies/${companyId}`)).body;

describe('moving a Peppol participant between providers', () => {
  it('when a registered company asks for a migration key, then the SML has it, and the new provider takes the participant over with it (once)', async () => {
    const receiver = await liveReceiver();
    const issued = await callAs(receiver.key, `/v1/companies/${receiver.companyId}/receiving/migration-key`, {
      method: 'POST',
    });
    expect(issued.status).toBe(201);
    expect(issued.body).toEqual({
      migration_key: expect.stringMatching(/^\S{24}$/),
      participant_id: receiver.peppolId,
      status: 'preparing',
      requested_at: expect.any(String),
    });

    const prepared = await until(
      'the key with the SML',
      () => company(receiver.key, receiver.companyId),
      (body) => body.peppol_migration.outgoing.status !== 'preparing',
    );
    expect(prepared.peppol_migration.outgoing).toMatchObject({
      status: 'prepared',
      participant_id: receiver.peppolId,
      prepared_at: expect.any(String),
      error_message: null,
    });
    // Until the new provider uses it, the participant is ours.
    expect((await smlRecord(receiver.peppolId)).smp_url).not.toBe(other.smpUrl);

    expect(await asOtherProvider(receiver.peppolId, 'migrate', issued.body.migration_key)).toEqual({
      status: 200,
      body: { status: 'registered' },
    });
    expect((await smlRecord(receiver.peppolId)).smp_url).toBe(other.smpUrl);
    // The key is used up: it cannot bring the participant back to our SMP.
    const again = await fetch(`${sharedStack().accessPointUrl}/sml/participants/${receiver.peppolId}`, {
      method: 'PUT',
      body: JSON.stringify({ migrationKey: issued.body.migration_key }),
    });
    expect({ status: again.status, body: await again.json() }).toMatchObject({
      status: 422,
      body: { error: expect.stringContaining('NotFoundFault'), permanent: true },
    });

    // The audit trail says who asked, never the key.
    const audit = await withStore((store) =>
      store.auditEvents.find({ target_id: receiver.companyId, action: 'company.migration_key_issued' }).lean(),
    );
    expect(audit).toEqual([expect.objectContaining({ details: { participant_id: receiver.peppolId } })]);
    expect(JSON.stringify(audit)).not.toContain(issued.body.migration_key);
    const sealed = await withStore((store) => store.companies.findById(receiver.companyId).lean());
    expect(sealed?.outgoing_migration?.key_sealed).toBeNull();
  }, 180_000);

  it('when a company is not registered here, or the caller is a member only, then no key is issued', async () => {
    const receiver = await liveReceiver();
    const notLive = await callAs(receiver.key, '/v1/companies', {
      method: 'POST',
      body: { name: 'Sandbox Only BV', country: 'BE' },
    });
    const refused = await callAs(receiver.key, `/v1/companies/${notLive.body.id}/receiving/migration-key`, {
      method: 'POST',
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'receiver_not_registered', param: 'id' });

    // A member of the workspace may read the company, not hand its participant to another provider.
    const member = await signUp('member');
    const added = await callAs(receiver.key, `/v1/workspaces/${receiver.workspaceId}/members`, {
      method: 'POST',
      body: { account_id: member.id, role: 'member' },
    });
    expect([added.status, added.text]).toEqual([201, expect.any(String)]);
    // Its own key reaches the company through the membership.
    const byMember = await callAs(member.key, `/v1/companies/${receiver.companyId}/receiving/migration-key`, {
      method: 'POST',
    });
    expect(byMember.status).toBe(403);
    expect(byMember.body.error).toMatchObject({ code: 'insufficient_role' });
    const company = await withStore((store) =>
      store.companies.findById(receiver.companyId, { outgoing_migration: 1 }).lean(),
    );
    expect(company?.outgoing_migration ?? null).toBeNull();
  }, 180_000);

  it('when a company arrives with the key its previous provider prepared, then the SML moves its participant to our SMP instead of refusing it as registered elsewhere', async () => {
    const peppolId = uniqueBelgianPeppolId();
    const migrationKey = 'Mv#7qT$2kLp9@Wx4';
    expect(await asOtherProvider(peppolId, 'register')).toEqual({ status: 200, body: { status: 'registered' } });

    // Without the key, the SML says another SMP holds it.
    const withoutKey = await liveReceiver({ peppol_id: peppolId }, 'registered_or_failed');
    expect(withoutKey.receiving).toMatchObject({
      status: 'failed',
      error_message: expect.stringContaining('already exist'),
    });

    // With a key the previous provider never prepared, the SML refuses the migration.
    const wrong = await callAs(withoutKey.key, `/v1/companies/${withoutKey.companyId}`, {
      method: 'PATCH',
      body: { migration_key: 'Zz#9yY$8xXw7@Vu6' },
    });
    expect(wrong.body.peppol_migration.incoming_key_supplied_at).toEqual(expect.any(String));
    const refusedKey = await until(
      'the migration refused',
      () => company(withoutKey.key, withoutKey.companyId),
      (body) => body.receiving.error_message?.includes('migrate') === true,
    );
    expect(refusedKey.receiving).toMatchObject({
      status: 'failed',
      error_message: expect.stringContaining('NotFoundFault'),
    });

    // The previous provider prepares the migration; the key the company brings moves the participant to us.
    expect(await asOtherProvider(peppolId, 'prepare', migrationKey)).toEqual({
      status: 200,
      body: { status: 'prepared' },
    });
    expect(
      (
        await callAs(withoutKey.key, `/v1/companies/${withoutKey.companyId}`, {
          method: 'PATCH',
          body: { migration_key: migrationKey },
        })
      ).status,
    ).toBe(200);
    const moved = await until(
      'the participant migrated',
      () => company(withoutKey.key, withoutKey.companyId),
      (body) => body.receiving.status === 'registered',
    );
    expect(moved.peppol_migration.incoming_key_supplied_at).toBeNull();
    const health = (await (await fetch(`${sharedStack().accessPointUrl}/health`)).json()) as {
      sml: { smpUrl: string };
    };
    expect((await smlRecord(peppolId)).smp_url).toBe(health.sml.smpUrl);
    const audit = await withStore((store) =>
      store.auditEvents
        .find({
          target_id: withoutKey.companyId,
          action: { $in: ['company.migration_key_supplied', 'company.participant_migrated_in'] },
        })
        .lean(),
    );
    expect(audit.map((entry) => entry.action).sort()).toEqual([
      'company.migration_key_supplied',
      'company.migration_key_supplied',
      'company.participant_migrated_in',
    ]);
  }, 240_000);

  it('when a migration key breaks the SML’s rule, then it is refused at once, naming the field and the rule', async () => {
    const receiver = await liveReceiver();
    const refused = await callAs(receiver.key, `/v1/companies/${receiver.companyId}`, {
      method: 'PATCH',
      body: { migration_key: 'password1' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: 'invalid_field',
      param: 'migration_key',
      message: expect.stringContaining('at least two of each character class, and too few'),
    });
  }, 180_000);
});
