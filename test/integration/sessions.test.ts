import mongoose from 'mongoose';

import { hashToken, newToken } from '../../domain/sessions';
import { deleteEndedSignIns } from '../../services/sessions';
import { createStore, type Store } from '../../store';
import { callAs, signUp, uniqueEmail } from '../support/accounts';
import { LIVE, sendingAccount } from '../support/documents';
import { askForSignInLink, callWithSession, signInLinksFor, startSession, tokenOf } from '../support/sessions';
import { sharedStack } from '../support/test-stack';

/**
 * Signing in to the web app (issue 42) through the API on the real stack:
 * a one-time link sent by email through the stack's mail sink, a session
 * cookie that acts as a key of its account, CSRF on every change, and the
 * workspace it acts in checked as a key's would be.
 */

let store: Store;
let connection: mongoose.Connection;

beforeAll(async () => {
  connection = await mongoose.createConnection(sharedStack().mongodbUri).asPromise();
  store = createStore(connection);
});
afterAll(() => connection?.close());

async function signedIn(email: string) {
  expect((await askForSignInLink(email)).status).toBe(202);
  const [link] = await signInLinksFor(email);
  const { session } = await startSession(tokenOf(link!));
  return session!;
}

describe('signing in to the web app', () => {
  it('when a link is asked for, then the answer is the same for an address with an account and one without, and only the account’s address gets an email', async () => {
    const account = await signUp('signin');
    const nobody = uniqueEmail('nobody');
    const [known, unknown] = await Promise.all([askForSignInLink(account.email), askForSignInLink(nobody)]);
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(known.body).toEqual(unknown.body);
    const [link] = await signInLinksFor(account.email);
    expect(link).toMatch(new RegExp(`^${sharedStack().apiUrl}/app/sign-in#token=`));
    expect((await askForSignInLink(nobody.toUpperCase())).body).toEqual(known.body);
  });

  it('when the link is spent, then the session acts as its account, HttpOnly and SameSite; a second use is refused', async () => {
    const account = await signUp('signin');
    await askForSignInLink(account.email);
    const [link] = await signInLinksFor(account.email);
    const first = await startSession(tokenOf(link!));
    expect(first.response.status).toBe(201);
    expect(first.response.headers.get('set-cookie')).toMatch(
      /einvoice_session=[0-9A-Za-z]{43}; Path=\/; Max-Age=43200; SameSite=Lax; HttpOnly/,
    );
    expect(first.response.body).toMatchObject({ csrf_token: first.session!.csrf });
    const me = await callWithSession(first.session!, '/v1/account');
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(account.email);

    const again = await startSession(tokenOf(link!));
    expect(again.response.status).toBe(401);
    expect(again.response.body.error).toMatchObject({ code: 'sign_in_link_invalid', param: 'token' });
  });

  it('when a session or a key asks who it is, then each gets its account, workspace and environment, and both environments\u2019 apps', async () => {
    const account = await signUp('signin');
    const session = await signedIn(account.email);
    const apps = {
      sandbox: `${sharedStack().apiUrl}/app`,
      live: expect.stringMatching(/^http:\/\/live\.localhost:\d+\/app$/),
    };
    const bySession = await callWithSession(session, '/v1/sessions/current');
    expect(bySession.body).toEqual({
      account_id: account.id,
      workspace_id: account.workspaceId,
      environment: 'sandbox',
      via: 'session',
      apps,
    });
    const byKey = await callAs(account.key, '/v1/sessions/current');
    expect(byKey.body).toEqual({
      account_id: account.id,
      workspace_id: account.workspaceId,
      environment: 'sandbox',
      via: 'api_key',
      apps,
    });
  });

  it('when a link is spent at the same moment twice, then one session opens', async () => {
    const account = await signUp('signin');
    await askForSignInLink(account.email);
    const [link] = await signInLinksFor(account.email);
    const answers = await Promise.all(Array.from({ length: 5 }, () => startSession(tokenOf(link!))));
    expect(answers.map(({ response }) => response.status).sort()).toEqual([201, 401, 401, 401, 401]);
  });

  it('when a link is past its 15 minutes, or spent on the other host, then it is refused', async () => {
    const account = await signUp('signin');
    await askForSignInLink(account.email);
    await askForSignInLink(account.email);
    const [old, other] = await signInLinksFor(account.email, 2);
    await store.signInLinks.updateOne(
      { _id: hashToken(tokenOf(old!)) },
      { $set: { expires_at: new Date(Date.now() - 1000) } },
    );
    expect((await startSession(tokenOf(old!))).response.body.error.code).toBe('sign_in_link_invalid');
    expect((await startSession(tokenOf(other!), { host: LIVE })).response.body.error.code).toBe('sign_in_link_invalid');
  });

  it('when an address asks for more links than an hour allows, then 429, whether or not it has an account', async () => {
    const nobody = uniqueEmail('flood');
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push((await askForSignInLink(nobody)).status);
    expect(answers).toEqual([202, 202, 202, 202, 202, 429]);
  });
});

describe('a session', () => {
  it('when it changes something without the CSRF token, or with another, then 403 csrf_token_invalid and nothing changes; with it, the change is made', async () => {
    const sender = await sendingAccount();
    const session = await signedIn(sender.email);
    const patch = { name: 'Renamed in the app' };
    for (const csrf of [null, 'x'.repeat(43)]) {
      const refused = await callWithSession(session, `/v1/workspaces/${sender.workspaceId}`, {
        method: 'PATCH',
        body: patch,
        csrf,
      });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('csrf_token_invalid');
    }
    expect((await callAs(sender.key, `/v1/workspaces/${sender.workspaceId}`)).body.name).not.toBe(patch.name);
    const made = await callWithSession(session, `/v1/workspaces/${sender.workspaceId}`, {
      method: 'PATCH',
      body: patch,
    });
    expect(made.status).toBe(200);
    expect(made.body.name).toBe(patch.name);
  });

  it('when it names a workspace its account is not a member of, then 404 workspace_not_found, as for one that does not exist', async () => {
    const [mine, other] = await Promise.all([sendingAccount(), sendingAccount()]);
    const session = await signedIn(mine.email);
    const crossing = await callWithSession(session, '/v1/companies', { workspace: other.workspaceId });
    expect(crossing.status).toBe(404);
    expect(crossing.body.error.code).toBe('workspace_not_found');
    const own = await callWithSession(session, '/v1/companies', { workspace: mine.workspaceId });
    expect(own.body.data.map((company: { id: string }) => company.id)).toEqual([mine.companyId]);
    const document = await callWithSession(session, `/v1/documents?company_id=${other.companyId}`);
    expect(document.status).toBe(403);
  });

  it('when it is used on the other host, or after signing out, then 401 session_ended', async () => {
    const account = await signUp('signin');
    const session = await signedIn(account.email);
    expect((await callWithSession(session, '/v1/account', { host: LIVE })).body.error.code).toBe('session_ended');
    const out = await callWithSession(session, '/v1/sessions/current', { method: 'DELETE' });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/einvoice_session=; Path=\/; Max-Age=0/);
    const after = await callWithSession(session, '/v1/account');
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('session_ended');
  });
});

describe('the sign-in clean-up', () => {
  it('when links and sessions stopped working more than a day ago, then the hourly chore deletes them and keeps the others', async () => {
    const account = await signUp('cleanup');
    const now = Date.now();
    const row = (hoursAgo: number) => ({
      _id: hashToken(newToken()),
      account_id: account.id,
      environment: 'sandbox' as const,
      created_at: new Date(now),
      expires_at: new Date(now - hoursAgo * 3_600_000),
    });
    const [oldLink, recentLink, oldSession] = [row(25), row(1), { ...row(25), csrf_hash: hashToken(newToken()) }];
    await store.signInLinks.create([oldLink, recentLink]);
    await store.sessions.create(oldSession);
    expect(await deleteEndedSignIns(store)).toBeGreaterThanOrEqual(2);
    expect(await store.signInLinks.findById(oldLink._id).lean()).toBeNull();
    expect(await store.sessions.findById(oldSession._id).lean()).toBeNull();
    expect(await store.signInLinks.findById(recentLink._id).lean()).not.toBeNull();
  });
});
