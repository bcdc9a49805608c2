import {
  callAs,
  disableAccount,
  fakeClientIp,
  signUp,
  teamWorkspace,
  uniqueEmail,
  withStore,
} from '../support/accounts';
import { callApi } from '../support/http';
import { sharedStack } from '../support/test-stack';

const postSignup = (body: unknown, ip = fakeClientIp()) =>
  callApi('/v1/signup', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
    body: JSON.stringify(body),
  });

describe('signup', () => {
  it('when a new email signs up, then it gets an account, an owned personal workspace and a working sandbox key shown once', async () => {
    const email = uniqueEmail('new');
    const response = await postSignup({ email, name: 'New' });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      id: expect.stringMatching(/^acc_/),
      email,
      status: 'active',
      workspace_id: expect.stringMatching(/^wsp_/),
    });
    const key: string = response.body.api_key;
    expect(key).toMatch(/^ps_test_[0-9A-Za-z]{43}$/);
    expect(response.body.prefix).toBe(`${key.slice(0, 15)}...`);

    const workspaces = await callAs(key, '/v1/workspaces');
    expect(workspaces.body.data).toEqual([
      expect.objectContaining({ id: response.body.workspace_id, role: 'owner', mode: 'sandbox' }),
    ]);
    const account = await callAs(key, '/v1/account');
    expect(account.status).toBe(200);
    expect(account.body.api_keys).toEqual([expect.objectContaining({ prefix: response.body.prefix, sandbox: true })]);
    expect(account.text).not.toContain(key);
  });

  it('when the key is stored, then only its SHA-256 hash is in the database', async () => {
    const account = await signUp();
    await withStore(async (store) => {
      const [stored] = await store.apiKeys.find({ account_id: account.id }).lean();
      expect(stored!._id).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(stored)).not.toContain(account.key);
    });
  });

  it('when the same email signs up again in another case, then 409 email_taken', async () => {
    const email = uniqueEmail('dup');
    expect((await postSignup({ email })).status).toBe(201);
    const again = await postSignup({ email: email.toUpperCase() });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'email_taken', param: 'email' });
  });

  it('when the same email signs up many times at once, then exactly one account is created', async () => {
    const email = uniqueEmail('race');
    const responses = await Promise.all(Array.from({ length: 8 }, () => postSignup({ email })));
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    await withStore(async (store) => expect(await store.accounts.countDocuments({ email_key: email })).toBe(1));
  });

  it.each([
    ['missing email', {}, 'email'],
    ['invalid email', { email: 'not-an-email' }, 'email'],
    ['operator injection', { email: { $gt: '' } }, 'email'],
    ['unknown field', { email: uniqueEmail(), admin: true }, 'admin'],
    ['over-long name', { email: uniqueEmail(), name: 'x'.repeat(201) }, 'name'],
  ])('when the body has a %s, then 400 invalid_field naming it and nothing is stored', async (_case, body, param) => {
    const response = await postSignup(body);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: 'validation_error', code: 'invalid_field', param });
  });

  it('when one IP address signs up more often than the hourly limit, then 429 with Retry-After', async () => {
    const ip = fakeClientIp();
    const limit = sharedStack().signupLimit;
    for (let i = 0; i < limit; i += 1) expect((await postSignup({ email: uniqueEmail('burst') }, ip)).status).toBe(201);
    const refused = await postSignup({ email: uniqueEmail('burst') }, ip);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('ratelimit-limit')).toBe(String(limit));
    // Another address is not affected.
    expect((await postSignup({ email: uniqueEmail('other') })).status).toBe(201);
  });
});

describe('authentication', () => {
  it('when no key is sent, then 401 missing_api_key with WWW-Authenticate naming this host’s metadata', async () => {
    const response = await callApi('/v1/account');
    expect(response.status).toBe(401);
    expect(response.body.error).toMatchObject({ type: 'authentication_error', code: 'missing_api_key' });
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${sharedStack().apiUrl}/.well-known/oauth-protected-resource"`,
    );
  });

  it.each([
    ['a malformed key', 'Bearer ps_test_short'],
    ['an unknown key', `Bearer ps_test_${'A'.repeat(43)}`],
  ])('when %s is sent, then 401 invalid_api_key', async (_case, authorization) => {
    const response = await callApi('/v1/account', { headers: { Authorization: authorization } });
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('invalid_api_key');
    expect(response.headers.get('www-authenticate')).toContain('resource_metadata=');
  });

  it('when a sandbox key comes to the live host or a live key to the sandbox host, then 403 wrong_environment', async () => {
    const account = await signUp();
    expect((await callAs(account.key, '/v1/account', { host: 'live.localhost' })).body.error.code).toBe(
      'wrong_environment',
    );
    const live = await callAs(account.key, '/v1/account/keys', {
      method: 'POST',
      body: { sandbox: false, label: 'prod' },
    });
    expect(live.status).toBe(201);
    expect(live.body).toMatchObject({ sandbox: false, api_key: expect.stringMatching(/^ps_live_/) });
    const onSandbox = await callAs(live.body.api_key, '/v1/account');
    expect(onSandbox.status).toBe(403);
    expect(onSandbox.body.error).toMatchObject({ type: 'authorization_error', code: 'wrong_environment' });
    const onLive = await callAs(live.body.api_key, '/v1/account', { host: 'live.localhost' });
    expect(onLive.status).toBe(200);
    expect(onLive.headers.get('ratelimit-limit')).toBe(String(sharedStack().rateLimitLive));
  });

  it('when a key carries no copy of its account (a key made before keys carried one), then the account is read: it works, and disabled it is refused', async () => {
    const account = await signUp();
    await withStore((store) => store.apiKeys.updateMany({ account_id: account.id }, { $unset: { account: 1 } }));
    expect((await callAs(account.key, '/v1/account')).status).toBe(200);
    await withStore((store) => store.accounts.updateOne({ _id: account.id }, { $set: { status: 'disabled' } }));
    expect((await callAs(account.key, '/v1/account')).body.error).toMatchObject({ code: 'disabled_account' });
  });

  it('when the account is disabled, then 403 disabled_account', async () => {
    const account = await signUp();
    await disableAccount(account.id);
    const response = await callAs(account.key, '/v1/account');
    expect(response.status).toBe(403);
    expect(response.body.error).toMatchObject({ type: 'authentication_error', code: 'disabled_account' });
  });
});

describe('API keys', () => {
  it('when a key is revoked, then the next request with it fails, and revoking it again is 404', async () => {
    const account = await signUp();
    const second = await callAs(account.key, '/v1/account/keys', { method: 'POST', body: { label: 'ci' } });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({
      sandbox: true,
      label: 'ci',
      company_id: null,
      api_key: expect.stringMatching(/^ps_test_/),
    });

    const revoked = await callAs(account.key, `/v1/account/keys/${encodeURIComponent(second.body.prefix)}`, {
      method: 'DELETE',
    });
    expect(revoked.body).toEqual({ revoked: true, prefix: second.body.prefix });
    expect((await callAs(second.body.api_key, '/v1/account')).body.error.code).toBe('invalid_api_key');
    const again = await callAs(account.key, `/v1/account/keys/${encodeURIComponent(second.body.prefix)}`, {
      method: 'DELETE',
    });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('api_key_not_found');
    expect(
      (await callAs(account.key, '/v1/account')).body.api_keys.map((key: { prefix: string }) => key.prefix),
    ).toEqual([account.prefix]);
  });

  it('when another account’s prefix is revoked, then 404 and that key keeps working', async () => {
    const [mine, theirs] = [await signUp(), await signUp()];
    const response = await callAs(mine.key, `/v1/account/keys/${encodeURIComponent(theirs.prefix)}`, {
      method: 'DELETE',
    });
    expect(response.status).toBe(404);
    expect((await callAs(theirs.key, '/v1/account')).status).toBe(200);
  });

  it('when an admin creates a key for a workspace, then its home is that workspace; a member gets 403 insufficient_role', async () => {
    const owner = await signUp('owner');
    const { workspaceId, members } = await teamWorkspace(owner);
    const adminKey = await callAs(members.admin!.key, '/v1/account/keys', {
      method: 'POST',
      body: { workspace_id: workspaceId },
    });
    expect(adminKey.status).toBe(201);
    expect(adminKey.body.workspace_id).toBe(workspaceId);
    const memberKey = await callAs(members.member!.key, '/v1/account/keys', {
      method: 'POST',
      body: { workspace_id: workspaceId },
    });
    expect(memberKey.status).toBe(403);
    expect(memberKey.body.error).toMatchObject({ type: 'authorization_error', code: 'insufficient_role' });
    const stranger = await signUp();
    const foreign = await callAs(stranger.key, '/v1/account/keys', {
      method: 'POST',
      body: { workspace_id: workspaceId },
    });
    expect(foreign.status).toBe(404);
  });

  it('when a key is limited to one company, then it sees only that company', async () => {
    const owner = await signUp('owner');
    const create = (name: string) =>
      callAs(owner.key, '/v1/companies', { method: 'POST', body: { name, country: 'BE' } });
    const [first, second] = [(await create('First')).body.id, (await create('Second')).body.id];
    const scoped = await callAs(owner.key, '/v1/account/keys', { method: 'POST', body: { company_id: first } });
    expect(scoped.body.company_id).toBe(first);
    expect((await callAs(scoped.body.api_key, '/v1/companies')).body.data.map((c: { id: string }) => c.id)).toEqual([
      first,
    ]);
    expect((await callAs(scoped.body.api_key, `/v1/companies/${second}`)).status).toBe(404);
  });
});
