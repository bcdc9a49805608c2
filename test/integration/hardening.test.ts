import { lstat, readdir, readFile, stat } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { KYC_KEY_FILE } from '../../stack/keys';
import { validFixtures } from '../fixtures/documents';
import { callAs, fakeClientIp, setRateLimit, signUp } from '../support/accounts';
import { sendingAccount } from '../support/documents';
import { callApi } from '../support/http';
import { checkAgainstDescription } from '../support/openapi-conformance';
import { earlyInAWindow } from '../support/rate-windows';
import { sharedStack } from '../support/test-stack';

/** What an attacker or a careless client could do, and what stops it (docs/security.md). */

const document = (companyId: string, extra: Record<string, unknown> = {}) => ({
  ...validFixtures[0]!.body,
  company_id: companyId,
  ...extra,
});

describe('a key limited to one company stays limited', () => {
  async function limitedKey() {
    const sender = await sendingAccount();
    const created = await callAs(sender.key, '/v1/account/keys', {
      method: 'POST',
      body: { company_id: sender.companyId, label: 'limited' },
    });
    expect(created.status).toBe(201);
    return { sender, limited: created.body.api_key as string, prefix: created.body.prefix as string };
  }

  it('when it sends and reads documents of its company, then that works', async () => {
    const { sender, limited } = await limitedKey();
    const posted = await callAs(limited, '/v1/documents', { method: 'POST', body: document(sender.companyId) });
    expect(posted.status).toBe(202);
    expect((await callAs(limited, `/v1/documents/${posted.body.id}?company_id=${sender.companyId}`)).status).toBe(200);
    expect((await callAs(limited, `/v1/companies/${sender.companyId}`)).status).toBe(200);
    expect((await callAs(limited, '/v1/companies')).body.data.map((company: { id: string }) => company.id)).toEqual([
      sender.companyId,
    ]);
  });

  it('when it tries to mint a key that is not limited the same way, then 403 key_limited', async () => {
    const { sender, limited } = await limitedKey();
    const other = await callAs(sender.key, '/v1/workspaces', { method: 'POST', body: { name: 'Other' } });
    for (const body of [
      {},
      { sandbox: false, company_id: sender.companyId },
      { workspace_id: other.body.id },
      { workspace_id: other.body.id, company_id: sender.companyId },
    ]) {
      const response = await callAs(limited, '/v1/account/keys', { method: 'POST', body });
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('key_limited');
    }
    expect(
      (await callAs(limited, '/v1/account/keys', { method: 'POST', body: { company_id: sender.companyId } })).status,
    ).toBe(201);
  });

  it('when it reaches workspace routes, account audit or usage, then 403 key_limited', async () => {
    const { sender, limited } = await limitedKey();
    const requests: [string, string, unknown?][] = [
      ['GET', `/v1/workspaces/${sender.workspaceId}`],
      ['GET', `/v1/workspaces/${sender.workspaceId}/members`],
      ['POST', `/v1/workspaces/${sender.workspaceId}/members`, { account_id: sender.id }],
      ['PATCH', `/v1/workspaces/${sender.workspaceId}/members/${sender.id}`, { role: 'admin' }],
      ['POST', `/v1/workspaces/${sender.workspaceId}/transfer-ownership`, { account_id: sender.id }],
      ['DELETE', `/v1/workspaces/${sender.workspaceId}`],
      ['GET', `/v1/workspaces/${sender.workspaceId}/audit`],
      ['GET', '/v1/workspaces'],
      ['POST', '/v1/workspaces', { name: 'x' }],
      ['GET', '/v1/account/audit'],
      ['GET', '/v1/account/usage'],
      ['POST', '/v1/companies', { name: 'x', country: 'BE' }],
      ['DELETE', `/v1/companies/${sender.companyId}`],
    ];
    for (const [method, path, body] of requests) {
      const response = await callAs(limited, path, { method, ...(body !== undefined && { body }) });
      expect([path, response.status, response.body.error?.code]).toEqual([path, 403, 'key_limited']);
    }
  });

  it('when it revokes keys or lists the account, then it sees and touches only keys of its company', async () => {
    const { sender, limited } = await limitedKey();
    const account = await callAs(limited, '/v1/account');
    expect(
      account.body.api_keys.every((key: { company_id: string | null }) => key.company_id === sender.companyId),
    ).toBe(true);
    expect(
      (await callAs(limited, `/v1/account/keys/${encodeURIComponent(sender.prefix)}`, { method: 'DELETE' })).status,
    ).toBe(404);
    expect((await callAs(sender.key, '/v1/account')).status).toBe(200);
  });
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: any;
  /** Whether the server closed the connection, and how long after the request head went out. */
  closed: boolean;
  elapsedMs: number;
}

/**
 * Sends only the head of a request on a raw socket (node:http would refuse
 * to declare a body it does not send) and collects what the server answers
 * until it closes the connection or `waitMs` passes.
 */
function sendHeadOnly(path: string, headers: Record<string, string>, waitMs = 2_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(sharedStack().apiUrl);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(Number(port), hostname, () => {
      const head = Object.entries({ Host: `${hostname}:${port}`, ...headers }).map(
        ([name, value]) => `${name}: ${value}\r\n`,
      );
      socket.write(`POST ${path} HTTP/1.1\r\n${head.join('')}\r\n`);
    });
    const chunks: Buffer[] = [];
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      const [head = '', ...rest] = Buffer.concat(chunks).toString('utf8').split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const parsedHeaders = Object.fromEntries(
        headerLines.map((line) => [
          line.slice(0, line.indexOf(':')).toLowerCase(),
          line.slice(line.indexOf(':') + 1).trim(),
        ]),
      );
      const text = rest.join('\r\n\r\n');
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers: parsedHeaders,
        body: text ? JSON.parse(text) : undefined,
        closed,
        elapsedMs: Date.now() - started,
      });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => finish(true));
    socket.on('error', reject);
  });
}

describe('no request can stall the service', () => {
  it.each([
    ['a public route, before its per-IP limit', '/v1/signup', () => 64 * 1024],
    ['a route with a key, before authentication', '/v1/documents', () => sharedStack().maxBodyBytes],
  ])(
    'when %s is declared a body of 999,999,999 bytes that never comes, then 413 body_too_large at once and the connection closes',
    async (_what, path, limit) => {
      const answer = await sendHeadOnly(path, { 'Content-Type': 'application/json', 'Content-Length': '999999999' });
      expect(answer).toMatchObject({ status: 413, closed: true, headers: { connection: 'close' } });
      expect(answer.elapsedMs).toBeLessThan(2_000);
      expect(answer.body.error).toMatchObject({ code: 'body_too_large', details: { limit_bytes: limit() } });
      await checkAgainstDescription(
        sharedStack().apiUrl,
        'POST',
        path,
        answer.status,
        answer.headers['content-type']!,
        answer.body,
      );
    },
  );

  it('when a chunked body (no declared length) passes the limit, then it is still 413 body_too_large', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request(new URL('/v1/signup', sharedStack().apiUrl), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': fakeClientIp() },
        agent: false,
      });
      request.on('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on('error', reject);
      for (let i = 0; i < 10; i += 1) request.write(`${'x'.repeat(8 * 1024)}`);
      request.end();
    });
    expect(status).toBe(413);
  });

  it('when a large body comes without a key, then it is refused 401 without being read', async () => {
    const response = await callApi('/v1/documents', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': fakeClientIp() },
      body: `[${'['.repeat(100_000)}`,
    });
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('missing_api_key');
  });

  it('when a body nests deeper than 32 levels, then 400 invalid_json before it is parsed', async () => {
    const sender = await sendingAccount();
    const response = await callApi('/v1/documents', {
      method: 'POST',
      headers: { Authorization: `Bearer ${sender.key}`, 'Content-Type': 'application/json' },
      body: `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      code: 'invalid_json',
      message: expect.stringContaining('deeper than 32'),
    });
  });

  it('when a body is null, a number, a string or not UTF-8, then 400 naming what is wrong', async () => {
    const account = await signUp();
    for (const body of ['null', '1', '"x"']) {
      const response = await callApi('/v1/workspaces', {
        method: 'POST',
        headers: { Authorization: `Bearer ${account.key}`, 'Content-Type': 'application/json' },
        body,
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'invalid_field', param: 'body' });
    }
    const latin1 = await callApi('/v1/workspaces', {
      method: 'POST',
      headers: { Authorization: `Bearer ${account.key}`, 'Content-Type': 'application/json' },
      body: Buffer.from('{"name":"caf\xe9"}', 'latin1'),
    });
    expect(latin1.status).toBe(400);
    // A document body is read on a worker thread, by the same rules: none at all is not a document.
    for (const body of ['', 'null', '[]']) {
      const response = await callApi('/v1/documents', {
        method: 'POST',
        headers: { Authorization: `Bearer ${account.key}`, 'Content-Type': 'application/json' },
        body,
      });
      expect([body, response.status, response.body.error.code, response.body.error.param]).toEqual([
        body,
        400,
        'invalid_field',
        'body',
      ]);
    }
  });

  it('when a body holds many problems, then the answer lists at most 50 of them', async () => {
    const account = await signUp();
    const body = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`unknown_${i}`, i]));
    const response = await callAs(account.key, '/v1/workspaces', { method: 'POST', body });
    expect(response.status).toBe(400);
    expect(response.body.error.details).toMatchObject({ total: 501, truncated: true });
    expect(response.body.error.details.errors).toHaveLength(50);
    expect(response.text.length).toBeLessThan(JSON.stringify(body).length * 2);
  });

  it('when unknown keys are tried from one address, then after 30 failures it is 429, and other addresses are unaffected', async () => {
    const address = fakeClientIp();
    const statuses: number[] = [];
    for (let i = 0; i < 32; i += 1) {
      const response = await callApi('/v1/account', {
        headers: { Authorization: `Bearer ps_test_${'x'.repeat(43)}`, 'X-Forwarded-For': address },
      });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 30).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(30)).toEqual([429, 429]);
    expect(
      (await callApi('/v1/account', { headers: { Authorization: 'Bearer nope', 'X-Forwarded-For': fakeClientIp() } }))
        .status,
    ).toBe(401);
  });

  it('when a path is asked with a method it does not have, then 405 with Allow, whatever body comes with it', async () => {
    const response = await callApi('/v1/signup', { method: 'PUT' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    const withBody = await callApi('/v1/ubl/validate', {
      method: 'PUT',
      headers: { 'Content-Type': 'text/plain' },
      body: 'not XML',
    });
    expect(withBody.status).toBe(405);
    expect(withBody.headers.get('allow')).toBe('POST');
  });

  it('when a concrete path is asked with a method only a template beside it has, then 405, and OPTIONS names the declared methods', async () => {
    // `/v1/documents/batch` is not the document `batch`: the concrete path shadows `/v1/documents/{id}`, as OpenAPI matches.
    const get = await callApi('/v1/documents/batch', { headers: { Authorization: 'Bearer ps_test_whatever' } });
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
    const options = await callApi('/v1/documents/batch', { method: 'OPTIONS' });
    expect([options.status, options.headers.get('allow')]).toEqual([204, 'POST']);
    expect((await callApi('/v1/documents/doc_123', { method: 'OPTIONS' })).headers.get('allow')).toBe('GET');
    expect((await callApi('/v1/nowhere', { method: 'OPTIONS' })).status).toBe(404);
  });
});

describe('limits are not easy to sidestep', () => {
  it('when a batch is sent, then it counts as one request, as the spec counts requests per key', async () => {
    const sender = await sendingAccount();
    await setRateLimit(sender.id, 10);
    await earlyInAWindow();
    const before = await callAs(sender.key, '/v1/workspaces');
    const response = await callAs(sender.key, '/v1/documents/batch', {
      method: 'POST',
      body: Array.from({ length: 12 }, (_, i) => document(sender.companyId, { number: `B-${i}` })),
    });
    expect(response.status).toBe(202);
    expect(response.body).toHaveLength(12);
    expect(response.headers.get('x-ratelimit-reset')).toBe(before.headers.get('x-ratelimit-reset'));
    expect(Number(response.headers.get('x-ratelimit-remaining'))).toBe(
      Number(before.headers.get('x-ratelimit-remaining')) - 1,
    );
  });

  it("when an account spreads requests over several keys, then the account limit (twice a key's) still holds", async () => {
    const account = await signUp();
    await setRateLimit(account.id, 4);
    const keys = [account.key];
    for (let i = 0; i < 2; i += 1)
      keys.push(
        (await callAs(account.key, '/v1/account/keys', { method: 'POST', body: { label: `k${i}` } })).body.api_key,
      );
    const statuses: number[] = [];
    for (const key of keys) for (let i = 0; i < 4; i += 1) statuses.push((await callAs(key, '/v1/workspaces')).status);
    // The first key spent 2 of its 4 on creating the others; the account's 8 run out on the third key.
    expect(statuses.filter((status) => status === 200)).toHaveLength(6);
    expect(statuses.at(-1)).toBe(429);
  });

  it('when IPv6 signups come from one /64, then they share one count', async () => {
    const prefix = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:${Math.floor(Math.random() * 0xffff).toString(16)}`;
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      const response = await callApi('/v1/signup', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `${prefix}:0:0:0:${(i + 1).toString(16)}` },
        body: JSON.stringify({ email: `v6-${Date.now()}-${i}@example.com` }),
      });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 10).every((status) => status === 201)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('when an account holds 25 active keys, then a 26th is refused until one is revoked', async () => {
    const account = await signUp();
    for (let i = 1; i < 25; i += 1)
      expect((await callAs(account.key, '/v1/account/keys', { method: 'POST', body: {} })).status).toBe(201);
    const refused = await callAs(account.key, '/v1/account/keys', { method: 'POST', body: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('key_limit_reached');
  });

  it('when the sandbox is asked to mail many different people, then the 21st new address of the day is refused; own addresses always go', async () => {
    const sender = await sendingAccount();
    const statuses: number[] = [];
    for (let i = 0; i < 21; i += 1) {
      const body = document(sender.companyId, {
        number: `R-${i}`,
        to: { ...(validFixtures[0]!.body.to as object), email: `person-${i}-${sender.id}@example.com` },
      });
      statuses.push((await callAs(sender.key, '/v1/documents', { method: 'POST', body })).status);
    }
    expect(statuses.slice(0, 20).every((status) => status === 202)).toBe(true);
    expect(statuses[20]).toBe(429);
    const again = document(sender.companyId, {
      number: 'R-again',
      to: { ...(validFixtures[0]!.body.to as object), email: `person-3-${sender.id}@example.com` },
    });
    expect((await callAs(sender.key, '/v1/documents', { method: 'POST', body: again })).status).toBe(202);
    const own = document(sender.companyId, {
      number: 'R-own',
      to: { ...(validFixtures[0]!.body.to as object), email: sender.email },
    });
    expect((await callAs(sender.key, '/v1/documents', { method: 'POST', body: own })).status).toBe(202);
  });
});

describe('probing accounts by email', () => {
  it('when members are added by email, then the 51st of the day is refused with 429', async () => {
    const owner = await signUp('prober');
    const statuses: number[] = [];
    for (let i = 0; i < 51; i += 1) {
      const response = await callAs(owner.key, `/v1/workspaces/${owner.workspaceId}/members`, {
        method: 'POST',
        body: { email: `nobody-${i}-${owner.id}@example.com` },
      });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 50).every((status) => status === 404)).toBe(true);
    expect(statuses[50]).toBe(429);
  });
});

describe('environments and downloads', () => {
  it('when a sandbox document is asked for with a live key, then it is not found', async () => {
    const sender = await sendingAccount();
    const posted = await callAs(sender.key, '/v1/documents', { method: 'POST', body: document(sender.companyId) });
    const live = await callAs(sender.key, '/v1/account/keys', { method: 'POST', body: { sandbox: false } });
    const response = await callAs(live.body.api_key, `/v1/documents/${posted.body.id}/history`, {
      host: 'live.localhost',
    });
    expect(response.status).toBe(404);
    const list = await callAs(live.body.api_key, `/v1/documents?company_id=${sender.companyId}`, {
      host: 'live.localhost',
    });
    expect(list.body.data).toEqual([]);
  });

  it('when an attachment has a name outside Latin-1, then it downloads with an RFC 6266 filename*', async () => {
    const sender = await sendingAccount();
    const posted = await callAs(sender.key, '/v1/documents', {
      method: 'POST',
      body: document(sender.companyId, {
        attachments: [
          {
            filename: 'Übersicht – 請求書.csv',
            mime_type: 'text/csv',
            content: Buffer.from('a;b\n').toString('base64'),
          },
        ],
      }),
    });
    const [attachment] = (await callAs(sender.key, `/v1/documents/${posted.body.id}/attachments`)).body.data;
    const download = await callAs(sender.key, `/v1/documents/${posted.body.id}/attachments/${attachment.id}`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="_bersicht _ ___.csv"; filename*=UTF-8''${encodeURIComponent('Übersicht – 請求書.csv')}`,
    );
  });

  it('when a batch entry names no company, then 400 missing_field naming it', async () => {
    const sender = await sendingAccount();
    const response = await callAs(sender.key, '/v1/documents/batch', { method: 'POST', body: [{}] });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'missing_field', param: '[0].company_id' });
  });
});

describe('a copy of the data directory opens nothing', () => {
  /** Every entry under `dir` that its group or others may read, write or enter (files come and go while the stack runs). */
  async function openToOthers(dir: string): Promise<string[]> {
    const found: string[] = [];
    const visit = async (entry: string) => {
      const stats = await lstat(entry).catch(() => undefined);
      if (!stats || stats.isSymbolicLink()) return;
      if ((stats.mode & 0o077) !== 0)
        found.push(`${path.relative(dir, entry) || '.'} ${(stats.mode & 0o777).toString(8)}`);
      if (stats.isDirectory())
        for (const name of await readdir(entry).catch(() => [])) await visit(path.join(entry, name));
    };
    await visit(dir);
    return found;
  }
  const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

  it("when the stack runs, then everything in its data directory (the databases of FerretDB and Temporal, mail, logs) and the keys it made are its user's only, and no key lies in the data directory", async () => {
    const { dataDir, keysDir } = sharedStack();
    expect(await openToOthers(dataDir)).toEqual([]);
    expect(await modeOf(path.join(dataDir, 'ferretdb', 'sqlite', 'einvoice.sqlite'))).toBe(0o600);
    expect(await modeOf(path.join(dataDir, 'temporal', 'temporal.db'))).toBe(0o600);
    expect(await modeOf(dataDir)).toBe(0o700);
    expect(await modeOf(keysDir)).toBe(0o700);
    expect(await modeOf(path.join(keysDir, KYC_KEY_FILE))).toBe(0o600);
    expect(path.relative(dataDir, keysDir)).toMatch(/^\.\./);
    expect((await readdir(dataDir)).filter((name) => name.endsWith('.key'))).toEqual([]);
  });
});

describe('Hardening III: the small gaps a probe of the receiving side found', () => {
  it.each([
    '/v1/lookup/%ff',
    '/v1/companies/%ff',
    '/v1/documents/%ff?company_id=com_x',
    '/v1/webhooks/%E0%A4%A',
    '/v1/lookup/0208%3A%ff/dns',
  ])(
    'when a path parameter is malformed percent-encoding (%s), then 400 invalid_field, with or without a key',
    async (target) => {
      const { key } = await signUp('percent');
      for (const headers of [
        { 'X-Forwarded-For': fakeClientIp() },
        { Authorization: `Bearer ${key}`, 'X-Forwarded-For': fakeClientIp() },
      ] as Record<string, string>[]) {
        const response = await callApi(target, { headers });
        expect({ status: response.status, code: response.body.error?.code }).toEqual({
          status: 400,
          code: 'invalid_field',
        });
      }
    },
  );

  it('when anything is answered, the reference page included, then it carries X-Content-Type-Options: nosniff', async () => {
    const { key } = await signUp('nosniff');
    for (const [target, headers] of [
      ['/v1/health', {}],
      ['/docs', {}],
      ['/v1/companies', { Authorization: `Bearer ${key}` }],
      ['/v1/companies', {}],
      ['/v1/no-such-route', {}],
    ] as const) {
      const response = await fetch(`${sharedStack().apiUrl}${target}`, { headers });
      expect({ target, nosniff: response.headers.get('x-content-type-options') }).toEqual({
        target,
        nosniff: 'nosniff',
      });
    }
  });

  it("when the stack runs, then only our access point (and the API that checks it) holds the intake's token: the processes that play foreign parties do not, and the stack's keys are its own", async () => {
    const { dataDir, keysDir } = sharedStack();
    const token = (await readFile(path.join(keysDir, 'inbound-token.key'), 'utf8')).trim();
    expect(path.dirname(keysDir)).toBe(path.join(os.homedir(), '.config', 'einvoice', 'keys'));
    const ofThisStack: { command: string; holdsToken: boolean; ourAccessPoint: boolean }[] = [];
    for (const pid of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
      const [environment, command] = await Promise.all([
        readFile(`/proc/${pid}/environ`, 'utf8').catch(() => ''),
        readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => ''),
      ]);
      if (!`${environment}${command}`.includes(dataDir)) continue;
      ofThisStack.push({
        command: command.split('\0').join(' '),
        holdsToken: environment.includes(token),
        // Other tests start access points of their own on this stack's PKI (another SMP, an inbound one), each with its own data directory.
        ourAccessPoint: environment.split('\0').includes(`AP_DATA_DIR=${path.join(dataDir, 'access-point')}`),
      });
    }
    const foreign = ofThisStack.filter(({ command }) => / receiver$|peppol-network\/main\.ts/.test(command.trim()));
    expect(foreign.length).toBeGreaterThanOrEqual(2);
    for (const party of foreign) expect(party).toMatchObject({ holdsToken: false });
    expect(
      ofThisStack.find(({ command, ourAccessPoint }) => ourAccessPoint && / sender$/.test(command.trim())),
    ).toMatchObject({ holdsToken: true });
  });
});
