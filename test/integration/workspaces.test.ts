import { callAs, signUp, teamWorkspace, type TestAccount } from '../support/accounts';

type Caller = 'owner' | 'admin' | 'member' | 'outsider';

interface Team {
  workspaceId: string;
  companyId: string;
  callers: Record<Caller, TestAccount>;
  fresh: TestAccount;
}

/** A fresh team per case, so destructive calls (delete, remove, transfer) never affect another case. */
async function freshTeam(): Promise<Team> {
  const owner = await signUp('owner');
  const { workspaceId, members, ownerTeamKey } = await teamWorkspace(owner);
  const company = await callAs(ownerTeamKey, '/v1/companies', {
    method: 'POST',
    body: { name: 'Team company', country: 'NL' },
  });
  return {
    workspaceId,
    companyId: company.body.id,
    callers: { owner, admin: members.admin!, member: members.member!, outsider: await signUp('outsider') },
    fresh: await signUp('fresh'),
  };
}

interface MatrixRow {
  name: string;
  allowed: Caller[];
  request: (team: Team) => { path: string; method?: string; body?: unknown };
}

const all: Caller[] = ['owner', 'admin', 'member'];
const managers: Caller[] = ['owner', 'admin'];

/** The spec's role rules, endpoint by endpoint. */
const matrix: MatrixRow[] = [
  { name: 'GET workspace', allowed: all, request: (t) => ({ path: `/v1/workspaces/${t.workspaceId}` }) },
  {
    name: 'PATCH workspace',
    allowed: managers,
    request: (t) => ({ path: `/v1/workspaces/${t.workspaceId}`, method: 'PATCH', body: { name: 'Renamed' } }),
  },
  {
    name: 'DELETE workspace',
    allowed: ['owner'],
    request: (t) => ({ path: `/v1/workspaces/${t.workspaceId}`, method: 'DELETE' }),
  },
  { name: 'GET members', allowed: all, request: (t) => ({ path: `/v1/workspaces/${t.workspaceId}/members` }) },
  {
    name: 'POST member',
    allowed: managers,
    request: (t) => ({
      path: `/v1/workspaces/${t.workspaceId}/members`,
      method: 'POST',
      body: { email: t.fresh.email },
    }),
  },
  {
    name: 'PATCH member role',
    allowed: ['owner'],
    request: (t) => ({
      path: `/v1/workspaces/${t.workspaceId}/members/${t.callers.member.id}`,
      method: 'PATCH',
      body: { role: 'admin' },
    }),
  },
  {
    name: 'DELETE member',
    allowed: managers,
    request: (t) => ({ path: `/v1/workspaces/${t.workspaceId}/members/${t.callers.member.id}`, method: 'DELETE' }),
  },
  {
    name: 'POST transfer-ownership',
    allowed: ['owner'],
    request: (t) => ({
      path: `/v1/workspaces/${t.workspaceId}/transfer-ownership`,
      method: 'POST',
      body: { account_id: t.callers.admin.id },
    }),
  },
  { name: 'GET workspace audit', allowed: all, request: (t) => ({ path: `/v1/workspaces/${t.workspaceId}/audit` }) },
  {
    name: 'POST account key for the workspace',
    allowed: managers,
    request: (t) => ({ path: '/v1/account/keys', method: 'POST', body: { workspace_id: t.workspaceId } }),
  },
  { name: 'GET company', allowed: all, request: (t) => ({ path: `/v1/companies/${t.companyId}` }) },
  {
    name: 'PATCH company',
    allowed: managers,
    request: (t) => ({ path: `/v1/companies/${t.companyId}`, method: 'PATCH', body: { tax_id: 'NL123456789B01' } }),
  },
];

const cases = matrix.flatMap((row) =>
  (['owner', 'admin', 'member', 'outsider'] as Caller[]).map((caller) => [row.name, caller, row] as const),
);

describe('role × endpoint matrix', () => {
  it.each(cases)('%s as %s', async (_name, caller, row) => {
    const team = await freshTeam();
    const { path, method, body } = row.request(team);
    const response = await callAs(team.callers[caller].key, path, {
      ...(method && { method }),
      ...(body !== undefined && { body }),
    });
    if (row.allowed.includes(caller)) {
      expect([200, 201]).toContain(response.status);
    } else if (caller === 'outsider') {
      expect(response.status).toBe(404);
      expect(['workspace_not_found', 'company_not_found']).toContain(response.body.error.code);
    } else {
      expect(response.status).toBe(403);
      expect(response.body.error).toMatchObject({ type: 'authorization_error', code: 'insufficient_role' });
    }
  });
});

describe('workspaces and members', () => {
  it('when a workspace is created, then the caller owns it and it is listed with the caller’s role', async () => {
    const account = await signUp();
    const created = await callAs(account.key, '/v1/workspaces', { method: 'POST', body: { name: 'Second' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^wsp_/),
      name: 'Second',
      role: 'owner',
      mode: 'sandbox',
      credit_balance: '0.00',
      suspended: false,
    });
    const listed = await callAs(account.key, '/v1/workspaces');
    expect(listed.body.data.map((w: { id: string }) => w.id)).toEqual([account.workspaceId, created.body.id]);
  });

  it.each([
    ['no name', {}, 400, 'missing_field', 'name'],
    ['an empty name', { name: '  ' }, 400, 'invalid_field', 'name'],
    ['a name that is an object', { name: { $ne: null } }, 400, 'invalid_field', 'name'],
  ])('when a workspace is created with %s, then %s %s', async (_case, body, status, code, param) => {
    const account = await signUp();
    const response = await callAs(account.key, '/v1/workspaces', { method: 'POST', body });
    expect(response.status).toBe(status);
    expect(response.body.error).toMatchObject({ code, param });
  });

  it('when an id names nothing, however it looks, then 404 workspace_not_found', async () => {
    const account = await signUp();
    for (const id of ['not-an-id', 'wsp_doesnotexist000', '%C2%84']) {
      const response = await callAs(account.key, `/v1/workspaces/${id}/members`);
      expect(response.status).toBe(404);
      expect(response.body.error).toMatchObject({ code: 'workspace_not_found', param: 'id' });
    }
  });

  it('when a workspace does not exist or the caller is not a member, then the answers are the same 404', async () => {
    const [owner, outsider] = [await signUp(), await signUp()];
    const existing = await callAs(outsider.key, `/v1/workspaces/${owner.workspaceId}`);
    const missing = await callAs(outsider.key, '/v1/workspaces/wsp_000000000000000000000000');
    expect(existing.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(existing.body.error.code).toBe(missing.body.error.code);
    expect(existing.body.error.message.replace(owner.workspaceId, 'ID')).toBe(
      missing.body.error.message.replace('wsp_000000000000000000000000', 'ID'),
    );
  });

  it('when members are invited, then by email (any case) or id; unknown, duplicate and contradictory invites are refused', async () => {
    const owner = await signUp();
    const { workspaceId, members } = await teamWorkspace(owner, ['admin']);
    const invitee = await signUp('invitee');
    const invite = (body: unknown, key = owner.key) =>
      callAs(key, `/v1/workspaces/${workspaceId}/members`, { method: 'POST', body });

    const byEmail = await invite({ email: invitee.email.toUpperCase() });
    expect(byEmail.status).toBe(201);
    expect(byEmail.body).toEqual({ account_id: invitee.id, workspace_id: workspaceId, role: 'member' });
    expect((await invite({ account_id: invitee.id })).body.error.code).toBe('already_member');
    expect((await invite({ email: 'nobody-here@example.com' })).body.error).toMatchObject({
      code: 'account_not_found',
      param: 'email',
    });
    expect((await invite({ role: 'member' })).body.error).toMatchObject({ code: 'missing_field', param: 'account_id' });
    const other = await signUp();
    expect((await invite({ account_id: other.id, email: invitee.email })).body.error).toMatchObject({
      code: 'invalid_field',
      param: 'email',
    });
    expect((await invite({ account_id: other.id, role: 'superuser' })).body.error).toMatchObject({
      code: 'invalid_field',
      param: 'role',
    });
    const adminGrantsOwner = await invite({ account_id: other.id, role: 'owner' }, members.admin!.key);
    expect(adminGrantsOwner.status).toBe(403);
    expect(adminGrantsOwner.body.error.code).toBe('insufficient_role');

    const listed = await callAs(invitee.key, `/v1/workspaces/${workspaceId}/members`);
    expect(listed.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ account_id: owner.id, role: 'owner', email: owner.email }),
        expect.objectContaining({ account_id: invitee.id, role: 'member' }),
      ]),
    );
  });

  it('when the only owner would stop being one, then 409 last_owner; with a second owner it works', async () => {
    const owner = await signUp();
    const { workspaceId, members } = await teamWorkspace(owner, ['admin']);
    const setRole = (accountId: string, role: string) =>
      callAs(owner.key, `/v1/workspaces/${workspaceId}/members/${accountId}`, { method: 'PATCH', body: { role } });
    const demoted = await setRole(owner.id, 'admin');
    expect({ status: demoted.status, code: demoted.body.error.code }).toEqual({ status: 409, code: 'last_owner' });
    expect(
      (await callAs(owner.key, `/v1/workspaces/${workspaceId}/members/${owner.id}`, { method: 'DELETE' })).body.error
        .code,
    ).toBe('last_owner');
    expect((await setRole(members.admin!.id, 'owner')).body).toEqual({ account_id: members.admin!.id, role: 'owner' });
    expect((await setRole(owner.id, 'admin')).status).toBe(200);
    expect((await setRole(members.admin!.id, 'nobody')).body.error).toMatchObject({
      code: 'invalid_field',
      param: 'role',
    });
  });

  it('when ownership is transferred, then the target becomes owner and the caller admin', async () => {
    const owner = await signUp();
    const { workspaceId, members } = await teamWorkspace(owner, ['member']);
    const transfer = (accountId: string) =>
      callAs(owner.key, `/v1/workspaces/${workspaceId}/transfer-ownership`, {
        method: 'POST',
        body: { account_id: accountId },
      });
    const stranger = await signUp();
    expect((await transfer(stranger.id)).body.error).toMatchObject({ code: 'member_not_found', param: 'account_id' });
    const toSelf = await transfer(owner.id);
    expect([toSelf.status, toSelf.body.error]).toEqual([
      422,
      expect.objectContaining({ code: 'transfer_to_self', param: 'account_id' }),
    ]);
    expect((await transfer(members.member!.id)).body).toEqual({ transferred: true, new_owner: members.member!.id });
    const roles = (await callAs(owner.key, `/v1/workspaces/${workspaceId}/members`)).body.data;
    expect(roles).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ account_id: owner.id, role: 'admin' }),
        expect.objectContaining({ account_id: members.member!.id, role: 'owner' }),
      ]),
    );
  });

  it('when a member is removed, then their keys at home in that workspace are revoked and their other keys keep working', async () => {
    const owner = await signUp();
    const { workspaceId, members } = await teamWorkspace(owner, ['admin']);
    const admin = members.admin!;
    const teamKey = (
      await callAs(admin.key, '/v1/account/keys', { method: 'POST', body: { workspace_id: workspaceId } })
    ).body.api_key;
    expect((await callAs(teamKey, '/v1/account')).status).toBe(200);

    const removed = await callAs(owner.key, `/v1/workspaces/${workspaceId}/members/${admin.id}`, { method: 'DELETE' });
    expect(removed.body).toEqual({ removed: true, account_id: admin.id });
    expect((await callAs(teamKey, '/v1/account')).body.error.code).toBe('invalid_api_key');
    expect((await callAs(admin.key, '/v1/account')).status).toBe(200);
    expect((await callAs(admin.key, `/v1/workspaces/${workspaceId}`)).status).toBe(404);
    expect(
      (await callAs(owner.key, `/v1/workspaces/${workspaceId}/members/${admin.id}`, { method: 'DELETE' })).body.error
        .code,
    ).toBe('member_not_found');
  });

  it('when deleting would leave a member without an owned workspace, then 400; otherwise the workspace and its keys are gone', async () => {
    const owner = await signUp();
    const personal = await callAs(owner.key, `/v1/workspaces/${owner.workspaceId}`, { method: 'DELETE' });
    expect(personal.status).toBe(400);
    expect(personal.body.error).toMatchObject({ code: 'workspace_not_deletable', details: { accounts: [owner.id] } });

    const { workspaceId, members, ownerTeamKey } = await teamWorkspace(owner, ['member']);
    const deleted = await callAs(owner.key, `/v1/workspaces/${workspaceId}`, { method: 'DELETE' });
    expect(deleted.body).toEqual({ deleted: true });
    expect((await callAs(owner.key, `/v1/workspaces/${workspaceId}`)).status).toBe(404);
    expect((await callAs(members.member!.key, `/v1/workspaces/${workspaceId}`)).status).toBe(404);
    expect((await callAs(ownerTeamKey, '/v1/account')).body.error.code).toBe('invalid_api_key');
    expect((await callAs(owner.key, '/v1/workspaces')).body.data.map((w: { id: string }) => w.id)).toEqual([
      owner.workspaceId,
    ]);
  });

  it('when a key of one workspace reaches for another, then it can read or change nothing there', async () => {
    const [alice, mallory] = [await signUp('alice'), await signUp('mallory')];
    const company = (
      await callAs(alice.key, '/v1/companies', { method: 'POST', body: { name: 'Alice NV', country: 'BE' } })
    ).body.id;
    const attempts = [
      callAs(mallory.key, `/v1/workspaces/${alice.workspaceId}`),
      callAs(mallory.key, `/v1/workspaces/${alice.workspaceId}`, { method: 'PATCH', body: { name: 'pwned' } }),
      callAs(mallory.key, `/v1/workspaces/${alice.workspaceId}`, { method: 'DELETE' }),
      callAs(mallory.key, `/v1/workspaces/${alice.workspaceId}/members`),
      callAs(mallory.key, `/v1/workspaces/${alice.workspaceId}/members`, {
        method: 'POST',
        body: { account_id: mallory.id, role: 'owner' },
      }),
      callAs(mallory.key, `/v1/workspaces/${alice.workspaceId}/members/${alice.id}`, { method: 'DELETE' }),
      callAs(mallory.key, `/v1/workspaces/${alice.workspaceId}/transfer-ownership`, {
        method: 'POST',
        body: { account_id: mallory.id },
      }),
      callAs(mallory.key, `/v1/workspaces/${alice.workspaceId}/audit`),
      callAs(mallory.key, `/v1/companies/${company}`),
      callAs(mallory.key, `/v1/companies/${company}`, { method: 'PATCH', body: { name: 'pwned' } }),
      callAs(mallory.key, '/v1/account/keys', { method: 'POST', body: { workspace_id: alice.workspaceId } }),
    ];
    for (const response of await Promise.all(attempts)) expect(response.status).toBe(404);
    expect((await callAs(mallory.key, '/v1/companies')).body.data).toEqual([]);
    expect((await callAs(alice.key, `/v1/companies/${company}`)).body.name).toBe('Alice NV');
    expect((await callAs(alice.key, `/v1/workspaces/${alice.workspaceId}/members`)).body.data).toHaveLength(1);
  });
});
