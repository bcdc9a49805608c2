import { callAs, signUp, teamWorkspace, withStore, type TestAccount } from '../support/accounts';

const acme = {
  name: 'Acme BV',
  country: 'BE',
  company_registration_id: '0123456749',
  tax_id: 'BE0123456749',
  email: 'billing@acme.example',
  iban: 'be68 5390 0754 7034',
  address: { street: 'Rue Neuve 1', city: 'Brussels', postal_code: '1000' },
  peppol_id: '0208:0123456749',
};

describe('companies', () => {
  let owner: TestAccount;
  beforeAll(async () => {
    owner = await signUp('owner');
  });

  it('when a company is created, then it is returned whole with the caller’s role and normalised values', async () => {
    const response = await callAs(owner.key, '/v1/companies', { method: 'POST', body: acme });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^com_/),
      name: 'Acme BV',
      workspace_id: owner.workspaceId,
      role: 'owner',
      is_live: false,
      company_registration_id: '0123456749',
      tax_id: 'BE0123456749',
      email: 'billing@acme.example',
      country: 'BE',
      address: { street: 'Rue Neuve 1', city: 'Brussels', postal_code: '1000' },
      iban: 'BE68539007547034',
      peppol_id: '0208:0123456749',
      receiving: null,
      participant_review: null,
      auto_acknowledge: false,
      receive_cii: false,
      directory: true,
      directory_listing: null,
      peppol_migration: { incoming_key_supplied_at: null, outgoing: null },
      created_at: expect.any(String),
    });
    const fetched = await callAs(owner.key, `/v1/companies/${response.body.id}`);
    expect(fetched.body).toMatchObject({ id: response.body.id, updated_at: expect.any(String) });
    expect(fetched.body).not.toHaveProperty('role');
  });

  it('when companies are listed, then the summary shape comes newest first, only from the caller’s workspace', async () => {
    const account = await signUp();
    for (const name of ['First', 'Second', 'Third'])
      await callAs(account.key, '/v1/companies', { method: 'POST', body: { name, country: 'NO' } });
    const listed = await callAs(account.key, '/v1/companies');
    expect(listed.body.data.map((company: { name: string }) => company.name)).toEqual(['Third', 'Second', 'First']);
    expect(Object.keys(listed.body.data[0]).sort()).toEqual([
      'country',
      'created_at',
      'id',
      'is_live',
      'name',
      'tax_id',
      'workspace_id',
    ]);
  });

  it.each([
    ['no name', { country: 'BE' }, 'missing_field', 'name'],
    ['no country', { name: 'X' }, 'missing_field', 'country'],
    ['an unknown country', { name: 'X', country: 'XX' }, 'invalid_country', 'country'],
    ['a country without active Peppol use', { name: 'X', country: 'US' }, 'invalid_country', 'country'],
    [
      'a country in lower case (the description lists the codes in upper case)',
      { name: 'X', country: 'be' },
      'invalid_country',
      'country',
    ],
    [
      'a Peppol id without a scheme',
      { name: 'X', country: 'BE', peppol_id: '0123456749' },
      'invalid_peppol_id',
      'peppol_id',
    ],
    [
      'a retired EAS scheme',
      { name: 'X', country: 'BE', peppol_id: '0193:0123456749' },
      'invalid_peppol_id',
      'peppol_id',
    ],
    [
      'a wrong check digit',
      { name: 'X', country: 'BE', peppol_id: '0208:0123456748' },
      'invalid_peppol_id',
      'peppol_id',
    ],
    // A scheme without a format of its own still takes only printable ASCII without XML's specials.
    [
      'NUL in a Peppol id',
      { name: 'X', country: 'BE', peppol_id: '0060:12\u000034' },
      'invalid_peppol_id',
      'peppol_id',
    ],
    [
      'U+0001 in a Peppol id',
      { name: 'X', country: 'BE', peppol_id: '0060:12\u000134' },
      'invalid_peppol_id',
      'peppol_id',
    ],
    [
      'U+FFFE in a Peppol id',
      { name: 'X', country: 'BE', peppol_id: '0060:12\uFFFE34' },
      'invalid_peppol_id',
      'peppol_id',
    ],
    [
      'a lone surrogate in a Peppol id',
      { name: 'X', country: 'BE', peppol_id: '0060:12\uD80034' },
      'invalid_peppol_id',
      'peppol_id',
    ],
    [
      'an XML special in a Peppol id',
      { name: 'X', country: 'BE', peppol_id: '0060:12<&>34' },
      'invalid_peppol_id',
      'peppol_id',
    ],
    ['a bad IBAN', { name: 'X', country: 'BE', iban: 'BE68539007547035' }, 'invalid_field', 'iban'],
    ['a bad email', { name: 'X', country: 'BE', email: 'nope' }, 'invalid_field', 'email'],
    [
      'an unknown address field',
      { name: 'X', country: 'BE', address: { planet: 'Mars' } },
      'invalid_field',
      'address.planet',
    ],
    ['an operator in a field', { name: { $gt: '' }, country: 'BE' }, 'invalid_field', 'name'],
    ['an over-long name', { name: 'x'.repeat(201), country: 'BE' }, 'invalid_field', 'name'],
    ['an unknown field', { name: 'X', country: 'BE', is_live: true }, 'invalid_field', 'is_live'],
  ])(
    'when a company is created with %s, then 400 %s naming %s and nothing is stored',
    async (_case, body, code, param) => {
      const account = await signUp();
      const response = await callAs(account.key, '/v1/companies', { method: 'POST', body });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ type: 'validation_error', code, param });
      await withStore(async (store) =>
        expect(await store.companies.countDocuments({ workspace_id: account.workspaceId })).toBe(0),
      );
    },
  );

  it('when several fields are wrong, then every one is listed in details at once', async () => {
    const response = await callAs(owner.key, '/v1/companies', {
      method: 'POST',
      body: { country: 'XX', peppol_id: 'x' },
    });
    expect(
      response.body.error.details.errors.map((e: { param: string; code: string }) => `${e.param}:${e.code}`),
    ).toEqual(expect.arrayContaining(['name:missing_field', 'country:invalid_country', 'peppol_id:invalid_peppol_id']));
  });

  it('when a company is updated, then only sent fields change, null clears, and the audit names the changed fields', async () => {
    const { workspaceId, ownerTeamKey } = await teamWorkspace(owner, []);
    const created = (await callAs(ownerTeamKey, '/v1/companies', { method: 'POST', body: acme })).body;
    const updated = await callAs(owner.key, `/v1/companies/${created.id}`, {
      method: 'PATCH',
      body: { tax_id: 'BE0987654321', email: null, name: 'Acme BV' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      tax_id: 'BE0987654321',
      email: null,
      name: 'Acme BV',
      iban: 'BE68539007547034',
      peppol_id: acme.peppol_id,
    });
    expect(Date.parse(updated.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.created_at));

    const audit = await callAs(owner.key, `/v1/workspaces/${workspaceId}/audit?limit=1`);
    expect(audit.body.data[0]).toMatchObject({
      action: 'company.updated',
      target: { type: 'company', id: created.id },
      details: { fields: ['email', 'tax_id'] },
      actor: { account_id: owner.id, key_prefix: expect.stringMatching(/^ps_test_.{7}\.\.\.$/) },
    });
  });

  it.each([
    ['no field', {}, 'no_fields_to_update'],
    ['an invalid Peppol id', { peppol_id: '9999:1' }, 'invalid_peppol_id'],
    ['a control character in the Peppol id', { peppol_id: '0060:12\u000134' }, 'invalid_peppol_id'],
    ['an invalid country', { country: 'ZZ' }, 'invalid_country'],
    ['a null name', { name: null }, 'invalid_field'],
  ])('when a company update has %s, then 400 %s and nothing changes', async (_case, body, code) => {
    const created = (
      await callAs(owner.key, '/v1/companies', { method: 'POST', body: { name: 'Stable', country: 'SE' } })
    ).body;
    const response = await callAs(owner.key, `/v1/companies/${created.id}`, { method: 'PATCH', body });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe(code);
    expect((await callAs(owner.key, `/v1/companies/${created.id}`)).body).toMatchObject({
      name: 'Stable',
      country: 'SE',
      updated_at: created.created_at,
    });
  });

  it('when a company id names nothing, however it looks, then 404 company_not_found for read, update and delete', async () => {
    const account = await signUp();
    for (const id of ['com_doesnotexist000', 'not-an-id', '%C2%84']) {
      for (const [method, body] of [['GET'], ['PATCH', { name: 'x' }], ['DELETE']] as const) {
        const response = await callAs(account.key, `/v1/companies/${id}`, { method, ...(body && { body }) });
        expect({ id, method, status: response.status, code: response.body.error.code }).toEqual({
          id,
          method,
          status: 404,
          code: 'company_not_found',
        });
      }
    }
  });

  it('when a plain member creates a company in its workspace, then 403 insufficient_role', async () => {
    const { members, workspaceId } = await teamWorkspace(owner, ['admin', 'member']);
    const adminKey = (
      await callAs(members.admin!.key, '/v1/account/keys', { method: 'POST', body: { workspace_id: workspaceId } })
    ).body.api_key;
    expect(
      (await callAs(adminKey, '/v1/companies', { method: 'POST', body: { name: 'By admin', country: 'DK' } })).body
        .role,
    ).toBe('admin');
    // A member cannot have a key at home in the team workspace, so test the rule through its own admin-less workspace role.
    await withStore((store) =>
      store.memberships.updateOne({ _id: `${workspaceId}:${members.admin!.id}` }, { $set: { role: 'member' } }),
    );
    const refused = await callAs(adminKey, '/v1/companies', {
      method: 'POST',
      body: { name: 'By member', country: 'DK' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('insufficient_role');
  });
});
