import os from 'node:os';
import path from 'node:path';

import { ConfigError, loadConfig, requireServiceAddresses, toEnvironment } from '../../platform/config';
import { loadStackConfig, serviceEnvironment } from '../../stack/config';
import { configuredSlots } from '../../worker/task-queues';
import { RESOURCE_NAMES } from '../../workflows/task-queues';

describe('configuration', () => {
  it('when nothing is set, then the documented defaults apply', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      TEMPORAL_NAMESPACE: 'default',
      LIVE_HOSTS: ['live.localhost', 'localhost'],
      RATE_LIMIT_SANDBOX: 60,
      RATE_LIMIT_LIVE: 120,
      SIGNUP_LIMIT: 10,
      LOG_LEVEL: 'info',
      STRICT_QUERY_SHAPES: false,
      TRUSTED_PROXIES: [],
      PUBLIC_SANDBOX_URL: 'http://127.0.0.1:3000',
      PUBLIC_LIVE_URL: 'http://live.localhost:3000',
    });
    expect(config.MONGODB_URI).toBeUndefined();
  });

  it('when a number is malformed, then start-up fails naming the variable and the value', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT="eighty"/);
    expect(() => loadConfig({ RATE_LIMIT_LIVE: '0' })).toThrow(/RATE_LIMIT_LIVE/);
  });

  it('when several variables are wrong, then every one is named at once, and a value that may hold a password is not printed', () => {
    const attempt = () => loadConfig({ PORT: '70000', LOG_LEVEL: 'loud', MONGODB_URI: 'mongo db://admin:hunter2@db' });
    for (const named of [/PORT="70000"/, /LOG_LEVEL="loud"/, /MONGODB_URI: /]) expect(attempt).toThrow(named);
    expect(attempt).not.toThrow(/hunter2/);
  });

  it('when a KYC key is not 32 bytes, then start-up fails naming it, without printing it', () => {
    for (const name of ['KYC_ENCRYPTION_KEY', 'KYC_ENCRYPTION_KEY_PREVIOUS']) {
      const attempt = () => loadConfig({ [name]: 'c2hvcnQga2V5' });
      expect(attempt).toThrow(new RegExp(`${name}: expected 32 bytes, base64-encoded`));
      expect(attempt).not.toThrow(/c2hvcnQga2V5/);
    }
  });

  it('when LIVE_HOSTS lists hosts loosely, then they are trimmed and lower-cased', () => {
    expect(loadConfig({ LIVE_HOSTS: ' Live.Example.com, api.live.test ,' }).LIVE_HOSTS).toEqual([
      'live.example.com',
      'api.live.test',
    ]);
  });

  it('when an address variable is empty, then it counts as not set', () => {
    expect(loadConfig({ MONGODB_URI: '', TEMPORAL_ADDRESS: '', SMTP_URL: '' })).toMatchObject({
      MONGODB_URI: undefined,
      TEMPORAL_ADDRESS: undefined,
      SMTP_URL: undefined,
    });
  });

  it("when MONGODB_URI names a replica set's members, then it is taken; a string that is not a MongoDB connection string is refused", () => {
    const replicaSet = 'mongodb://mongodb-1:27017,mongodb-2:27017,mongodb-3:27017/einvoice?replicaSet=rs0&w=majority';
    expect(loadConfig({ MONGODB_URI: replicaSet }).MONGODB_URI).toBe(replicaSet);
    expect(
      loadConfig({ MONGODB_URI: 'mongodb+srv://user:pw@cluster0.example.net/einvoice' }).MONGODB_URI,
    ).toBeDefined();
    for (const bad of [
      'http://mongodb:27017/einvoice',
      'mongodb://',
      'mongodb://a:27017,b c:27017/x',
      'mongodb+srv://a,b/x',
    ]) {
      expect(() => loadConfig({ MONGODB_URI: bad })).toThrow(/MONGODB_URI: expected a MongoDB connection string/);
    }
  });

  it('when API_PROCESSES is set, then the API threads are shared among the processes unless API_WORKER_THREADS says otherwise; empty counts are the default', () => {
    const one = loadConfig({ API_PROCESSES: '1' });
    const four = loadConfig({ API_PROCESSES: '4' });
    expect(four.API_WORKER_THREADS).toBe(Math.max(1, Math.floor(one.API_WORKER_THREADS / 4)));
    expect(loadConfig({ API_PROCESSES: '4', API_WORKER_THREADS: '3' }).API_WORKER_THREADS).toBe(3);
    expect(loadConfig({ API_PROCESSES: '', WORKER_PROCESSES: '' })).toMatchObject({
      API_PROCESSES: loadConfig({}).API_PROCESSES,
      WORKER_PROCESSES: loadConfig({}).WORKER_PROCESSES,
    });
    expect(() => loadConfig({ WORKER_PROCESSES: '0' })).toThrow(/WORKER_PROCESSES="0"/);
  });

  it('when WORKER_TASK_QUEUES names some queues, then the worker polls those; unset or empty, all; an unknown name is refused, naming the known ones', () => {
    expect(loadConfig({}).WORKER_TASK_QUEUES).toEqual(RESOURCE_NAMES);
    expect(loadConfig({ WORKER_TASK_QUEUES: '' }).WORKER_TASK_QUEUES).toEqual(RESOURCE_NAMES);
    expect(loadConfig({ WORKER_TASK_QUEUES: ' as4, email,as4' }).WORKER_TASK_QUEUES).toEqual(['as4', 'email']);
    expect(() => loadConfig({ WORKER_TASK_QUEUES: 'as4,smtp' })).toThrow(
      /WORKER_TASK_QUEUES="as4,smtp": unknown task queue "smtp"; expected some of workflows, validation, as4, email, webhooks, housekeeping/,
    );
  });

  it("when the validation slots are not set, then each worker process takes its share of the validator's send permits, at least one", () => {
    const slots = (env: Record<string, string>, permits: number | undefined) =>
      configuredSlots(loadConfig(env), permits);
    expect(slots({ WORKER_PROCESSES: '1' }, 2)).toEqual({
      validation: 2,
      as4: 8,
      email: 4,
      webhooks: 16,
      housekeeping: 2,
    });
    expect(slots({ WORKER_PROCESSES: '2' }, 3).validation).toBe(2);
    expect(slots({ WORKER_PROCESSES: '4' }, 2).validation).toBe(1);
    expect(slots({ WORKER_PROCESSES: '1' }, undefined).validation).toBe(os.availableParallelism());
    expect(slots({ WORKER_PROCESSES: '2', VALIDATION_TASK_SLOTS: '5', AS4_TASK_SLOTS: '3' }, 2)).toMatchObject({
      validation: 5,
      as4: 3,
    });
    expect(() => loadConfig({ EMAIL_TASK_SLOTS: '0' })).toThrow(/EMAIL_TASK_SLOTS="0"/);
  });

  it('when TEMPORAL_ADDRESS is not host:port, then it is refused', () => {
    expect(() => loadConfig({ TEMPORAL_ADDRESS: 'http://temporal' })).toThrow(/TEMPORAL_ADDRESS/);
  });

  it('when public URLs are set, then links use their origin', () => {
    expect(
      loadConfig({
        PUBLIC_SANDBOX_URL: 'https://api.example.com/some/path',
        PUBLIC_LIVE_URL: 'https://live.example.com',
      }),
    ).toMatchObject({
      PUBLIC_SANDBOX_URL: 'https://api.example.com',
      PUBLIC_LIVE_URL: 'https://live.example.com',
    });
  });

  it('when the API or worker starts without service addresses, then it says which are missing and how to proceed', () => {
    expect(() => requireServiceAddresses(loadConfig({ MONGODB_URI: 'mongodb://db:27017/x' }), 'api')).toThrow(
      /^TEMPORAL_ADDRESS, SMTP_URL, VALIDATOR_URL, WEBHOOK_SECRET_KEY, KYC_ENCRYPTION_KEY not set: run `npm start`/,
    );
    // Only the worker sends live documents, through our access point; only the API seals KYC documents.
    expect(() => requireServiceAddresses(loadConfig({ MONGODB_URI: 'mongodb://db:27017/x' }), 'worker')).toThrow(
      /^TEMPORAL_ADDRESS, SMTP_URL, VALIDATOR_URL, ACCESS_POINT_URL, WEBHOOK_SECRET_KEY not set: run `npm start`/,
    );
  });

  it('when a configuration is turned back into variables, then loading them gives the same configuration', () => {
    const config = loadConfig({
      PORT: '4000',
      LIVE_HOSTS: 'a.test,b.test',
      MONGODB_URI: 'mongodb://db:27017/x',
      STRICT_QUERY_SHAPES: 'true',
    });
    expect(loadConfig(toEnvironment(config))).toEqual(config);
  });

  it('the embedded stack has variables of its own, which the service never receives', () => {
    const stack = loadStackConfig({ FERRETDB_PORT: '27018' });
    expect(stack.DATA_DIR).toBe(path.resolve('./data'));
    expect(stack.FERRETDB_PORT).toBe(27018);
    const passed = serviceEnvironment(stack);
    expect(passed).toMatchObject({ PORT: '3000' });
    expect(Object.keys(passed)).not.toEqual(expect.arrayContaining(['DATA_DIR']));
    expect(passed).not.toHaveProperty('FERRETDB_PORT');
  });

  it('when no DATA_DIR is named, then each shape has a data directory of its own (and so keys of its own); a named one is used by either', () => {
    expect(loadStackConfig({}).DATA_DIR).toBe(path.resolve('./data'));
    expect(loadStackConfig({ STACK_SHAPE: 'production' }).DATA_DIR).toBe(path.resolve('./data-production'));
    expect(loadStackConfig({ STACK_SHAPE: 'production' }).KEYS_DIR).not.toBe(loadStackConfig({}).KEYS_DIR);
    expect(loadStackConfig({ STACK_SHAPE: 'production', DATA_DIR: '/tmp/stack-one' }).DATA_DIR).toBe('/tmp/stack-one');
  });

  it('when no KEYS_DIR is named, then each DATA_DIR has keys of its own, outside it; a named KEYS_DIR is used as it is', () => {
    const first = loadStackConfig({ DATA_DIR: '/tmp/stack-one' }).KEYS_DIR;
    const second = loadStackConfig({ DATA_DIR: '/tmp/stack-two' }).KEYS_DIR;
    expect(first).not.toBe(second);
    expect(loadStackConfig({ DATA_DIR: '/tmp/stack-one' }).KEYS_DIR).toBe(first);
    for (const dir of [first, second])
      expect(path.dirname(dir)).toBe(path.join(os.homedir(), '.config', 'einvoice', 'keys'));
    expect(loadStackConfig({ DATA_DIR: '/tmp/stack-one', KEYS_DIR: '/srv/keys' }).KEYS_DIR).toBe('/srv/keys');
  });

  it('when TRUSTED_PROXIES lists addresses, ranges and network names, then they are kept; none trusts no proxy', () => {
    expect(loadConfig({ TRUSTED_PROXIES: ' loopback, 10.0.0.0/8 ,2001:db8::/32, 192.0.2.7' }).TRUSTED_PROXIES).toEqual([
      'loopback',
      '10.0.0.0/8',
      '2001:db8::/32',
      '192.0.2.7',
    ]);
    expect(loadConfig({ TRUSTED_PROXIES: 'none' }).TRUSTED_PROXIES).toEqual([]);
    expect(loadConfig({ TRUSTED_PROXIES: '' }).TRUSTED_PROXIES).toEqual([]);
  });

  it.each(['true', '1', 'proxy.example.com', '10.0.0.0/33', '::1/129', 'none,loopback', '10.0.0.1/8/8', ','])(
    'when TRUSTED_PROXIES is %p, then it is refused naming the variable',
    (value) => {
      expect(() => loadConfig({ TRUSTED_PROXIES: value })).toThrow(/TRUSTED_PROXIES=.*expected none, or a comma list/);
    },
  );

  it('the embedded stack trusts a proxy on this machine unless told otherwise, and passes that on to its API', () => {
    expect(loadStackConfig({}).TRUSTED_PROXIES).toEqual(['loopback']);
    expect(serviceEnvironment(loadStackConfig({})).TRUSTED_PROXIES).toBe('loopback');
    const none = loadStackConfig({ TRUSTED_PROXIES: 'none' });
    expect(none.TRUSTED_PROXIES).toEqual([]);
    expect(loadConfig(serviceEnvironment(none)).TRUSTED_PROXIES).toEqual([]);
  });

  it('when the access point would wait longer than one delivery attempt allows, then AS4_SEND_TIMEOUT is refused', () => {
    expect(loadStackConfig({}).AS4_SEND_TIMEOUT).toBe(30_000);
    expect(() => loadStackConfig({ AS4_SEND_TIMEOUT: '45s' })).toThrow(/AS4_SEND_TIMEOUT="45s": expected at most 30s/);
  });
});
