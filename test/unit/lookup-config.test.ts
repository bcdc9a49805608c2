import { loadConfig } from '../../platform/config';

describe('participant lookup configuration', () => {
  it('when nothing is set, then lookups query the production SML with the system resolver, 100 per IP address per hour', () => {
    expect(loadConfig({})).toMatchObject({ PEPPOL_SML_ZONE: 'participant.sml.prod.tech.peppol.org', PEPPOL_DNS_SERVER: undefined, LOOKUP_LIMIT: 100 });
  });

  it('when a zone is written loosely, then it is lower-cased and its trailing dot dropped', () => {
    expect(loadConfig({ PEPPOL_SML_ZONE: 'Participant.SML.Test.Tech.Peppol.org.' }).PEPPOL_SML_ZONE).toBe('participant.sml.test.tech.peppol.org');
  });

  it.each(['192.0.2.53', '192.0.2.53:5353', '2001:db8::53', '[2001:db8::53]:53'])('accepts the DNS server %s', (server) => {
    expect(loadConfig({ PEPPOL_DNS_SERVER: server }).PEPPOL_DNS_SERVER).toBe(server);
  });

  it.each([
    ['PEPPOL_DNS_SERVER', 'dns.example.com:53'],
    ['PEPPOL_DNS_SERVER', '192.0.2.53:0'],
    ['PEPPOL_DNS_SERVER', '[192.0.2.53]:53'],
    ['PEPPOL_SML_ZONE', 'not a zone'],
    ['LOOKUP_LIMIT', '0'],
  ])('when %s is %j, then start-up fails naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}=`));
  });
});
