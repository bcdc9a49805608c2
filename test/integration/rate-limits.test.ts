import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { hashApiKey } from '../../domain/api-keys';
import { ManagedProcess } from '../../stack/managed-process';
import { freePort } from '../../stack/ports';
import { callAs, setRateLimit, signUp, withStore, type TestAccount } from '../support/accounts';
import { callApi } from '../support/http';
import { earlyInAWindow } from '../support/rate-windows';
import { sharedStack } from '../support/test-stack';
import { until } from '../support/until';

async function withSupportLimit(account: TestAccount, perMinute: number): Promise<void> {
  await setRateLimit(account.id, perMinute);
}

describe('rate limits', () => {
  it('when a key makes requests, then both header families count down in the current minute', async () => {
    await earlyInAWindow();
    const account = await signUp();
    const first = await callAs(account.key, '/v1/account');
    const second = await callAs(account.key, '/v1/account');
    const limit = sharedStack().rateLimitSandbox;
    expect(first.headers.get('ratelimit-limit')).toBe(String(limit));
    expect(first.headers.get('x-ratelimit-limit')).toBe(String(limit));
    expect(Number(first.headers.get('ratelimit-remaining'))).toBe(limit - 1);
    expect(Number(second.headers.get('ratelimit-remaining'))).toBe(limit - 2);
    expect(second.headers.get('x-ratelimit-remaining')).toBe(String(limit - 2));
    const reset = Number(second.headers.get('ratelimit-reset'));
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(60);
    const resetAt = Number(second.headers.get('x-ratelimit-reset'));
    expect(Math.abs(resetAt - (Date.now() / 1000 + reset))).toBeLessThanOrEqual(2);
  });

  it('when support sets a lower limit for an account and it is exceeded, then 429 rate_limit_exceeded with Retry-After', async () => {
    await earlyInAWindow();
    const account = await signUp();
    await withSupportLimit(account, 3);
    for (let i = 0; i < 3; i += 1) expect((await callAs(account.key, '/v1/account')).status).toBe(200);
    const refused = await callAs(account.key, '/v1/account');
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({
      type: 'rate_limit_error',
      code: 'rate_limit_exceeded',
      retry: { retryable: true },
    });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit-limit')).toBe('3');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    // Each key has its own count.
    const otherKey = await signUp();
    expect((await callAs(otherKey.key, '/v1/account')).status).toBe(200);
  });

  it('when public endpoints are called, then no per-key limit applies', async () => {
    const response = await callApi('/v1/health');
    expect(response.headers.get('ratelimit-limit')).toBeNull();
  });

  describe('with a second API process', () => {
    let second: ManagedProcess;
    let secondUrl: string;
    let logDir: string;

    beforeAll(async () => {
      const port = await freePort();
      logDir = await mkdtemp(path.join(os.tmpdir(), 'einvoice-api2-'));
      secondUrl = `http://127.0.0.1:${port}`;
      const {
        mongodbUri,
        temporalAddress,
        smtpUrl,
        validatorUrl,
        rateLimitSandbox,
        rateLimitLive,
        webhookSecretKey,
        kycEncryptionKey,
      } = sharedStack();
      second = new ManagedProcess(
        'api-2',
        process.execPath,
        ['--import', 'tsx', path.resolve(__dirname, '../../api/server.ts')],
        {
          env: {
            ...process.env,
            PORT: String(port),
            MONGODB_URI: mongodbUri,
            TEMPORAL_ADDRESS: temporalAddress,
            SMTP_URL: smtpUrl,
            VALIDATOR_URL: validatorUrl,
            WEBHOOK_SECRET_KEY: webhookSecretKey,
            KYC_ENCRYPTION_KEY: kycEncryptionKey,
            RATE_LIMIT_SANDBOX: String(rateLimitSandbox),
            RATE_LIMIT_LIVE: String(rateLimitLive),
            LOG_LEVEL: 'debug',
          },
          logFile: path.join(logDir, 'api-2.log'),
        },
      );
      second.start();
      const started = async () => {
        if (!second.running) throw new Error(`the second API exited:\n${second.tail()}`);
        return (await callApi('/v1/health', { baseUrl: secondUrl }).catch(() => undefined))?.status;
      };
      await until('the second API answering /v1/health', started, (status) => status === 200, 30_000);
    }, 60_000);

    afterAll(async () => {
      await second.stop();
      await rm(logDir, { recursive: true, force: true });
    });

    it('when requests alternate between two API processes, then they share one count', async () => {
      await earlyInAWindow();
      const account = await signUp();
      await withSupportLimit(account, 6);
      const statuses: number[] = [];
      const remaining: string[] = [];
      for (let i = 0; i < 8; i += 1) {
        const response = await callAs(account.key, '/v1/account', i % 2 === 0 ? {} : { baseUrl: secondUrl });
        statuses.push(response.status);
        remaining.push(response.headers.get('ratelimit-remaining') ?? '');
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
      expect(remaining).toEqual(['5', '4', '3', '2', '1', '0', '0', '0']);
    });

    it('when a key is used, then neither the key nor its hash appears in the API log, even at debug level', async () => {
      const account = await signUp();
      await callAs(account.key, '/v1/account', { baseUrl: secondUrl });
      // The last request's line is the marker that the log holds both (the logger writes in order).
      const last = `/v1/nothing?marker=${randomUUID()}`;
      await callAs(account.key, last, { baseUrl: secondUrl });
      const log = await until(
        "the last request's log line",
        () => readFile(path.join(logDir, 'api-2.log'), 'utf8'),
        (text) => text.includes(last),
        10_000,
      );
      const lines = log
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const requestLines = lines.filter((line) => line.msg === 'request completed');
      expect(requestLines.length).toBeGreaterThan(0);
      for (const line of requestLines) expect(line.request_id).toMatch(/^req_/);
      expect(requestLines).toEqual(
        expect.arrayContaining([expect.objectContaining({ account_id: account.id, key_prefix: account.prefix })]),
      );
      expect(log).not.toContain(account.key.slice(15));
      expect(log).not.toContain(hashApiKey(account.key));
    });

    it('when both processes are hit at once, then exactly the limit is let through', async () => {
      await earlyInAWindow();
      const account = await signUp();
      await withSupportLimit(account, 10);
      const responses = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          callAs(account.key, '/v1/account', i % 2 === 0 ? {} : { baseUrl: secondUrl }),
        ),
      );
      expect(responses.filter((response) => response.status === 200)).toHaveLength(10);
      expect(responses.filter((response) => response.status === 429)).toHaveLength(6);
      expect(
        new Set(responses.filter((r) => r.status === 200).map((r) => r.headers.get('ratelimit-remaining'))),
      ).toEqual(new Set(['9', '8', '7', '6', '5', '4', '3', '2', '1', '0']));
      // Every call let through is counted once, whichever process served it.
      const counted = await withStore(async (store) =>
        (await store.usageDays.find({ account_id: account.id }).lean()).reduce((sum, row) => sum + row.api_calls, 0),
      );
      expect(counted).toBe(10);
    });
  });
});
