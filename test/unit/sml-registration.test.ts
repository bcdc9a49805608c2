import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { smlRegistration, NetworkRegistrationError } from '../../platform/peppol/network-registration';
import { freePort } from '../../stack/ports';

/** The client of our access point's /sml endpoint against a stand-in that answers what each test sets. */
describe('registering participants in the SML through our access point', () => {
  let server: http.Server;
  let baseUrl: string;
  let answer: { status: number; body: unknown };
  const requests: { method?: string; url?: string }[] = [];

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      requests.push({ method: request.method, url: request.url });
      response.writeHead(answer.status, { 'Content-Type': 'application/json' });
      response.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => {
    requests.length = 0;
  });

  const failure = (promise: Promise<void>) =>
    promise.then(
      () => undefined,
      (err: unknown) => err as NetworkRegistrationError,
    );

  it('PUTs a participant value to /sml/participants/{value} and DELETEs it there, done on the status the access point confirms', async () => {
    answer = { status: 200, body: { status: 'registered' } };
    await smlRegistration(baseUrl).register('0208:0123456749');
    answer = { status: 200, body: { status: 'unregistered' } };
    await smlRegistration(baseUrl).unregister('0208:0123456749');
    expect(requests).toEqual([
      { method: 'PUT', url: '/sml/participants/0208%3A0123456749' },
      { method: 'DELETE', url: '/sml/participants/0208%3A0123456749' },
    ]);
  });

  it.each([
    [
      'a refusal of the SML (422)',
      422,
      {
        error: 'the SML refused to register 0208:0123456749 for SMP SMP-1: BadRequestFault [ERR-106] already exist',
        permanent: true,
      },
      true,
      /already exist/,
    ],
    [
      'a value that is no participant (400)',
      400,
      { error: "'x' is not a Peppol participant value" },
      true,
      /is not a Peppol participant value/,
    ],
    [
      'an SML that cannot be reached (503)',
      503,
      { error: 'the SML at https://sml.example/manageparticipantidentifier could not be reached', permanent: false },
      false,
      /could not be reached/,
    ],
    [
      'registration not configured (503)',
      503,
      { error: 'SML registration is not configured on this access point: set SML_URL', permanent: false },
      false,
      /not configured/,
    ],
    ["an answer that is not the access point's", 502, '<html>bad gateway</html>', false, /answered HTTP 502/],
    ['a 200 without the state reached', 200, { status: 'unregistered' }, false, /answered HTTP 200/],
  ] as const)(
    'reports %s as an error that says whether a retry can help',
    async (_what, status, body, permanent, message) => {
      answer = { status, body };
      const error = await failure(smlRegistration(baseUrl).register('0208:0123456749'));
      expect(error).toBeInstanceOf(NetworkRegistrationError);
      expect(error!.permanent).toBe(permanent);
      expect(error!.message).toMatch(/^registering 0208:0123456749 in the SML: /);
      expect(error!.message).toMatch(message);
    },
  );

  it('reports an access point that does not answer as passing', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const error = await failure(smlRegistration(closed).unregister('0208:0123456749'));
    expect(error).toMatchObject({
      permanent: false,
      message: expect.stringMatching(
        /^unregistering 0208:0123456749 in the SML: our access point at .* could not be reached/,
      ),
    });
  });
});
