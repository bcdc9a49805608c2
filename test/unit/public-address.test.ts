import { isPublicAddress } from '../../domain/public-address';

/** The one address policy of webhooks and SMP URLs: public unicast only, IPv4 carried in IPv6 judged too. */
describe('the addresses the service may connect to when someone else names the host', () => {
  it.each([
    ['loopback', '127.0.0.1'],
    ['private', '10.2.3.4'],
    ['private', '172.16.0.1'],
    ['private', '192.168.1.1'],
    ['shared (carrier-grade NAT)', '100.64.0.1'],
    ['link-local (cloud metadata)', '169.254.169.254'],
    ['"this network"', '0.0.0.0'],
    ['documentation', '192.0.2.1'],
    ['6to4 relay anycast', '192.88.99.1'],
    ['multicast', '224.0.0.1'],
    ['broadcast', '255.255.255.255'],
    ['IPv6 loopback', '::1'],
    ['IPv6 unspecified', '::'],
    ['IPv6 link-local', 'fe80::1'],
    ['IPv6 link-local with a zone', 'fe80::1%eth0'],
    ['unique-local (AWS metadata)', 'fd00:ec2::254'],
    ['site-local', 'fec0::1'],
    ['IPv6 multicast', 'ff02::1'],
    ['IPv6 discard-only', '100::1'],
    ['IPv6 documentation', '2001:db8::1'],
    ['IPv6 documentation (RFC 9637)', '3fff::1'],
    ['IPv6 benchmarking', '2001:2::1'],
    ['IPv4-mapped private', '::ffff:10.0.0.1'],
    ['IPv4-mapped private, in hex', '::ffff:a00:1'],
    ['IPv4-compatible link-local (metadata)', '::a9fe:a9fe'],
    ['IPv4-compatible loopback', '::127.0.0.1'],
    ['IPv4-translated (RFC 2765)', '::ffff:0:808:808'],
    ['NAT64 well-known prefix, link-local inside', '64:ff9b::a9fe:a9fe'],
    ['NAT64 local-use prefix, private inside', '64:ff9b:1::a00:1'],
    ['NAT64 local-use prefix, public inside (a local translator)', '64:ff9b:1::808:808'],
    ['6to4, private inside', '2002:a00:1::1'],
    ['6to4, loopback inside', '2002:7f00:1::'],
    ['Teredo, loopback client (inverted)', '2001:0:4136:e378:8000:63bf:80ff:fffe'],
    ['Teredo, private server', '2001:0:a00:1:8000:63bf:f7f7:f7f7'],
    ['not an address', 'not an address'],
    ['a host name', 'localhost'],
  ])('when the address is %s (%s), then it is refused', (_what, address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    ['public IPv4', '93.184.216.34'],
    ['public IPv4', '1.1.1.1'],
    ['public IPv6', '2606:4700:4700::1111'],
    ['IPv4-mapped public', '::ffff:8.8.8.8'],
    ['NAT64 well-known prefix, public inside', '64:ff9b::808:808'],
    ['6to4, public inside', '2002:808:808::1'],
    ['Teredo, public server and client', '2001:0:4136:e378:8000:63bf:f7f7:f7f7'],
  ])('when the address is %s (%s), then it is allowed', (_what, address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});
