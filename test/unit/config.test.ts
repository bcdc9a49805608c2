import path from 'node:path';

import { ConfigError, configToEnv, loadConfig, requireServiceAddresses } from '../../platform/config';

describe('configuration', () => {
  it('when nothing is set, then the documented defaults apply', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      TEMPORAL_NAMESPACE: 'default',
      TEMPORAL_UI_PORT: 8233,
      LIVE_HOSTS: ['live.localhost'],
      RATE_LIMIT_SANDBOX: 60,
      RATE_LIMIT_LIVE: 120,
      SIGNUP_LIMIT: 10,
      LOG_LEVEL: 'info',
    });
    expect(config.DATA_DIR).toBe(path.resolve('./data'));
    expect(config.MONGODB_URI).toBeUndefined();
  });

  it('when a number is malformed, then start-up fails naming the variable and the value', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT="eighty"/);
    expect(() => loadConfig({ RATE_LIMIT_LIVE: '0' })).toThrow(/RATE_LIMIT_LIVE/);
  });

  it('when several variables are wrong, then every one is named at once', () => {
    const attempt = () => loadConfig({ PORT: '70000', LOG_LEVEL: 'loud', MONGODB_URI: 'not a url' });
    for (const named of [/PORT="70000"/, /LOG_LEVEL="loud"/, /MONGODB_URI="not a url"/]) expect(attempt).toThrow(named);
  });

  it('when LIVE_HOSTS lists hosts loosely, then they are trimmed and lower-cased', () => {
    expect(loadConfig({ LIVE_HOSTS: ' Live.Example.com, api.live.test ,' }).LIVE_HOSTS).toEqual(['live.example.com', 'api.live.test']);
  });

  it('when an address variable is empty, then it counts as not set', () => {
    expect(loadConfig({ MONGODB_URI: '', TEMPORAL_ADDRESS: '', SMTP_URL: '' })).toMatchObject({
      MONGODB_URI: undefined,
      TEMPORAL_ADDRESS: undefined,
      SMTP_URL: undefined,
    });
  });

  it('when TEMPORAL_ADDRESS is not host:port, then it is refused', () => {
    expect(() => loadConfig({ TEMPORAL_ADDRESS: 'http://temporal' })).toThrow(/TEMPORAL_ADDRESS/);
  });

  it('when the API or worker starts without service addresses, then it says which are missing and how to proceed', () => {
    expect(() => requireServiceAddresses(loadConfig({ MONGODB_URI: 'mongodb://db:27017/x' }))).toThrow(
      /TEMPORAL_ADDRESS, SMTP_URL not set: run `npm start`/,
    );
  });

  it('when a configuration is turned back into variables, then loading them gives the same configuration', () => {
    const config = loadConfig({ PORT: '4000', LIVE_HOSTS: 'a.test,b.test', MONGODB_URI: 'mongodb://db:27017/x' });
    expect(loadConfig(configToEnv(config))).toEqual(config);
  });
});
