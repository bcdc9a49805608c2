import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { callAs, signUp, teamWorkspace } from '../support/accounts';

describe('audit trail', () => {
  it('when keys, members and companies change, then each change is recorded with actor, key prefix, workspace, target and time', async () => {
    const owner = await signUp('owner');
    const { workspaceId, members, ownerTeamKey } = await teamWorkspace(owner, ['admin', 'member']);
    const company = (
      await callAs(ownerTeamKey, '/v1/companies', { method: 'POST', body: { name: 'Audited', country: 'FI' } })
    ).body.id;
    await callAs(owner.key, `/v1/companies/${company}`, { method: 'PATCH', body: { name: 'Audited Oy' } });
    await callAs(owner.key, `/v1/workspaces/${workspaceId}/members/${members.member!.id}`, {
      method: 'PATCH',
      body: { role: 'admin' },
    });
    await callAs(owner.key, `/v1/workspaces/${workspaceId}/members/${members.member!.id}`, { method: 'DELETE' });
    await callAs(owner.key, `/v1/workspaces/${workspaceId}/transfer-ownership`, {
      method: 'POST',
      body: { account_id: members.admin!.id },
    });
    const teamKeyPrefix = (await callAs(owner.key, '/v1/account')).body.api_keys.find(
      (k: { workspace_id: string }) => k.workspace_id === workspaceId,
    ).prefix;
    await callAs(owner.key, `/v1/account/keys/${encodeURIComponent(teamKeyPrefix)}`, { method: 'DELETE' });

    const events = (await callAs(members.admin!.key, `/v1/workspaces/${workspaceId}/audit?limit=100`)).body.data;
    expect(events.map((event: { action: string }) => event.action).reverse()).toEqual([
      'workspace.created',
      'member.added',
      'member.added',
      'api_key.created',
      'company.created',
      'company.updated',
      'member.role_changed',
      'member.removed',
      'workspace.ownership_transferred',
      'api_key.revoked',
    ]);
    for (const event of events) {
      expect(event).toMatchObject({
        id: expect.stringMatching(/^aud_/),
        workspace_id: workspaceId,
        actor: { account_id: owner.id, key_prefix: expect.stringMatching(/^ps_test_/) },
        target: { type: expect.any(String), id: expect.any(String) },
      });
      expect(Date.parse(event.created_at)).not.toBeNaN();
    }
    const byAction = (action: string) => events.find((event: { action: string }) => event.action === action);
    expect(byAction('member.role_changed')).toMatchObject({
      target: { id: members.member!.id },
      details: { from: 'member', to: 'admin' },
    });
    expect(byAction('company.updated').details).toEqual({ fields: ['name'] });
    expect(byAction('workspace.ownership_transferred').target.id).toBe(members.admin!.id);
    expect(byAction('api_key.revoked').target.id).toBe(teamKeyPrefix);
  });

  it('when pages are read while new events arrive, then no event is skipped or repeated', async () => {
    const owner = await signUp();
    for (let i = 0; i < 12; i += 1)
      await callAs(owner.key, `/v1/workspaces/${owner.workspaceId}`, { method: 'PATCH', body: { name: `Name ${i}` } });
    const before = (await callAs(owner.key, `/v1/workspaces/${owner.workspaceId}/audit?limit=100`)).body.data.map(
      (e: { id: string }) => e.id,
    );

    const seen: string[] = [];
    let cursor: string | null = null;
    let inserts = 0;
    do {
      const page: { body: { data: { id: string }[]; has_more: boolean; next_cursor: string | null } } = await callAs(
        owner.key,
        `/v1/workspaces/${owner.workspaceId}/audit?limit=4${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...page.body.data.map((event) => event.id));
      cursor = page.body.next_cursor;
      expect(page.body.has_more).toBe(cursor !== null);
      // New events between pages.
      await callAs(owner.key, `/v1/workspaces/${owner.workspaceId}`, {
        method: 'PATCH',
        body: { name: `During ${(inserts += 1)}` },
      });
    } while (cursor);

    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining(before));
    expect([...seen].sort().reverse()).toEqual(seen);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=ten', 'limit'],
    ['cursor=not-a-cursor', 'cursor'],
    ['limit[$gt]=1', 'limit[$gt]'],
  ])('when the audit list is asked with %s, then 400 invalid_field naming %s', async (query, param) => {
    const owner = await signUp();
    const response = await callAs(owner.key, `/v1/workspaces/${owner.workspaceId}/audit?${query}`);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'invalid_field', param });
  });

  it('when the account audit is read, then it spans every workspace the account belongs to and no other', async () => {
    const [owner, other] = [await signUp('owner'), await signUp('other')];
    const { workspaceId } = await teamWorkspace(owner, []);
    const events = (await callAs(owner.key, '/v1/account/audit')).body;
    expect(new Set(events.data.map((event: { workspace_id: string }) => event.workspace_id))).toEqual(
      new Set([owner.workspaceId, workspaceId]),
    );
    expect(events.data.length).toBeLessThanOrEqual(50);
    expect(
      (await callAs(other.key, '/v1/account/audit')).body.data.every(
        (event: { workspace_id: string }) => event.workspace_id === other.workspaceId,
      ),
    ).toBe(true);
  });

  it('no source file updates or deletes audit events', () => {
    const root = path.resolve(__dirname, '../..');
    const walk = (dir: string): string[] =>
      readdirSync(path.join(root, dir)).flatMap((entry) => {
        const file = path.join(dir, entry);
        return statSync(path.join(root, file)).isDirectory() ? walk(file) : file.endsWith('.ts') ? [file] : [];
      });
    const sources = ['api', 'services', 'store', 'activities', 'workflows', 'worker', 'domain', 'platform'].flatMap(
      walk,
    );
    const mutations = sources.filter((file) =>
      /auditEvents\s*\.\s*(update|delete|findOneAndUpdate|findOneAndDelete|findByIdAndUpdate|findByIdAndDelete|replace|bulkWrite)/.test(
        readFileSync(path.join(root, file), 'utf8'),
      ),
    );
    expect(sources.length).toBeGreaterThan(20);
    expect(mutations).toEqual([]);
  });
});

describe('usage', () => {
  it('when the API is called, then each authenticated call counts for today and the report fills every day', async () => {
    const account = await signUp();
    for (let i = 0; i < 3; i += 1) await callAs(account.key, '/v1/account');
    const report = await callAs(account.key, '/v1/account/usage?days=3');
    expect(report.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(report.body).toMatchObject({ days: 3, to: today, totals: { api_calls: 4, documents_sent: 0 } });
    expect(report.body.data).toHaveLength(3);
    expect(report.body.data[2]).toEqual({ date: today, api_calls: 4, documents_sent: 0, documents_received: 0 });
    expect(report.body.data[0]).toMatchObject({ api_calls: 0 });
    expect((await callAs(account.key, '/v1/account')).body.usage).toEqual({
      period_days: 30,
      api_calls: 5,
      documents_sent: 0,
      documents_received: 0,
    });
  });

  it('when no days are given, then 30; at most 90', async () => {
    const account = await signUp();
    expect((await callAs(account.key, '/v1/account/usage')).body.data).toHaveLength(30);
    expect((await callAs(account.key, '/v1/account/usage?days=90')).body.data).toHaveLength(90);
    for (const days of ['91', '0', 'many']) {
      const response = await callAs(account.key, `/v1/account/usage?days=${days}`);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'invalid_field', param: 'days' });
    }
  });
});
