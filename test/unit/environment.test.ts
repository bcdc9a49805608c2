import { environmentForHost } from '../../domain/environment';

describe('environment from the Host header', () => {
  const liveHosts = ['live.localhost', 'api.example.com'];

  it.each([
    ['live.localhost', 'live'],
    ['LIVE.localhost:3000', 'live'],
    ['api.example.com', 'live'],
    ['localhost:3000', 'sandbox'],
    ['sandbox.example.com', 'sandbox'],
    ['live.localhost.evil.test', 'sandbox'],
    [undefined, 'sandbox'],
  ])('%s is served as %s', (host, expected) => {
    expect(environmentForHost(host, liveHosts)).toBe(expected);
  });
});
