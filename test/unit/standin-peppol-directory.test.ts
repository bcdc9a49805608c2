import http from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { businessCardXml } from '../../domain/peppol/directory';
import { StandInPeppolDirectory } from '../../stack/peppol-network/peppol-directory';
import { SmlRegistrations } from '../../stack/peppol-network/sml-registrations';

/** The stand-in Directory's indexer against a real SMP socket that serves what each test sets. */
describe('the stand-in Peppol Directory', () => {
  const ours = { subject: 'CN=SMP ours', fingerprint: 'AA:01' };
  const theirs = { subject: 'CN=SMP theirs', fingerprint: 'BB:02' };
  const participant = '0208:0123456749';
  let work: string;
  let smp: http.Server;
  let answer: { status: number; body: string };
  let directory: StandInPeppolDirectory;
  const asked: string[] = [];

  beforeAll(async () => {
    smp = http.createServer((request, response) => {
      asked.push(request.url ?? '');
      response.writeHead(answer.status, { 'Content-Type': 'text/xml' }).end(answer.body);
    });
    await new Promise<void>((resolve) => smp.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => smp.close(resolve)));

  beforeEach(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'directory-'));
    const registrations = await SmlRegistrations.open(path.join(work, 'sml.json'), 'sml.test', []);
    const logicalAddress = `http://127.0.0.1:${(smp.address() as AddressInfo).port}/smp`;
    await registrations.handle(
      { operation: 'createSmp', smpId: 'SMP-OURS', logicalAddress, physicalAddress: '127.0.0.1' },
      ours,
    );
    await registrations.handle(
      {
        operation: 'createParticipant',
        smpId: 'SMP-OURS',
        participant: { scheme: 'iso6523-actorid-upis', value: participant },
      },
      ours,
    );
    directory = await StandInPeppolDirectory.open(path.join(work, 'directory.json'), registrations);
    answer = {
      status: 200,
      body: businessCardXml({
        participant,
        name: 'Acme BV',
        country: 'BE',
        identifiers: [{ scheme: 'vat', value: 'BE0123456749' }],
      }),
    };
    asked.length = 0;
  });
  afterEach(() => rm(work, { recursive: true, force: true }));

  it('reads the card from the SMP the SML names, keeps it on disk and finds it by name, id or identifier', async () => {
    expect(await directory.index(`iso6523-actorid-upis::${participant}\n`, ours)).toMatchObject({ status: 204 });
    expect(asked).toEqual(['/smp/businesscard/iso6523-actorid-upis%3A%3A0208%3A0123456749']);
    for (const query of ['acme', '0123456749', 'be0123456749'])
      expect(directory.search(query).map((match) => match.participantID.value)).toEqual([participant]);
    expect(directory.search('globex')).toEqual([]);
    expect(JSON.parse(await readFile(path.join(work, 'directory.json'), 'utf8')).cards).toEqual([
      expect.objectContaining({ participant, owner: ours }),
    ]);
  });

  it('refuses what it cannot index, saying why: not a participant id, not in the SML, no card at the SMP, not a card', async () => {
    expect(await directory.index('0208:0123456749', ours)).toMatchObject({ status: 400 });
    expect(await directory.index('iso6523-actorid-upis::0208:0987654394', ours)).toMatchObject({
      status: 404,
      message: expect.stringContaining('not registered in the SML'),
    });
    answer = { status: 404, body: 'Unknown participant.' };
    expect(await directory.index(`iso6523-actorid-upis::${participant}`, ours)).toMatchObject({
      status: 404,
      message: expect.stringContaining('answered HTTP 404'),
    });
    answer = { status: 200, body: '<ServiceGroup xmlns="http://busdox.org/serviceMetadata/publishing/1.0/"/>' };
    expect(await directory.index(`iso6523-actorid-upis::${participant}`, ours)).toMatchObject({
      status: 422,
      message: expect.stringContaining('not a business card'),
    });
    expect(directory.search('')).toEqual([]);
  });

  it('lets only the certificate that indexed a card remove it', async () => {
    await directory.index(`iso6523-actorid-upis::${participant}`, ours);
    expect(await directory.remove(`iso6523-actorid-upis::${participant}`, theirs)).toMatchObject({ status: 403 });
    expect(directory.search('acme')).toHaveLength(1);
    expect(await directory.remove(`iso6523-actorid-upis::${participant}`, ours)).toMatchObject({ status: 204 });
    expect(directory.search('acme')).toEqual([]);
  });
});
