import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { smlDnsName } from '../../domain/peppol/sml';
import { childNamed, parseXml } from '../../domain/xml-tree';
import { LIST_PAGE_SIZE, SmlRegistrations, type SmpOwner } from '../../stack/peppol-network/sml-registrations';
import {
  answerEnvelope,
  faultEnvelope,
  IDS_NS,
  LOCATOR_NS,
  parseSmlRequest,
  SmlFault,
  SOAP_NS,
  type SmlRequest,
} from '../../stack/peppol-network/sml-soap';

/**
 * The stand-in SML's management interface without sockets: the SOAP messages
 * an SMP's SML client sends, read; the answers and faults BDMSL gives,
 * written; and the rules of its registrations (who may change what, what is
 * published in DNS, what survives a restart).
 */

const envelope = (body: string) =>
  `<?xml version='1.0' encoding='UTF-8'?><S:Envelope xmlns:S="${SOAP_NS}"><S:Body>${body}</S:Body></S:Envelope>`;

describe('reading the SOAP requests of the SML management interface', () => {
  it('reads a participant Create exactly as peppol-sml-client (JAX-WS) writes it', () => {
    // The wire form shown in phax/peppol-commons issue 48: default namespace, ns2 for the identifiers.
    const xml = envelope(
      `<CreateParticipantIdentifier xmlns="${LOCATOR_NS}" xmlns:ns2="${IDS_NS}"><ServiceMetadataPublisherID>HELGER2-SMP</ServiceMetadataPublisherID>` +
        `<ns2:ParticipantIdentifier scheme="iso6523-actorid-upis">0208:0123456749</ns2:ParticipantIdentifier></CreateParticipantIdentifier>`,
    );
    expect(parseSmlRequest('manageparticipantidentifier', xml)).toEqual({
      operation: 'createParticipant',
      smpId: 'HELGER2-SMP',
      participant: { scheme: 'iso6523-actorid-upis', value: '0208:0123456749' },
    });
  });

  it('reads the SMP record operations, Delete being a bare ServiceMetadataPublisherID, and a list request with an empty page id', () => {
    const endpoint =
      '<PublisherEndpoint><LogicalAddress>https://smp.example.com</LogicalAddress><PhysicalAddress>203.0.113.7</PhysicalAddress></PublisherEndpoint>';
    expect(
      parseSmlRequest(
        'manageservicemetadata',
        envelope(
          `<l:CreateServiceMetadataPublisherService xmlns:l="${LOCATOR_NS}">${endpoint.replace(/<(\/?)/g, '<$1l:')}<l:ServiceMetadataPublisherID>SMP-1</l:ServiceMetadataPublisherID></l:CreateServiceMetadataPublisherService>`,
        ),
      ),
    ).toEqual({
      operation: 'createSmp',
      smpId: 'SMP-1',
      logicalAddress: 'https://smp.example.com',
      physicalAddress: '203.0.113.7',
    });
    expect(
      parseSmlRequest(
        'manageservicemetadata',
        envelope(
          `<ReadServiceMetadataPublisherService xmlns="${LOCATOR_NS}"><ServiceMetadataPublisherID>SMP-1</ServiceMetadataPublisherID></ReadServiceMetadataPublisherService>`,
        ),
      ),
    ).toEqual({
      operation: 'readSmp',
      smpId: 'SMP-1',
    });
    expect(
      parseSmlRequest(
        'manageservicemetadata',
        envelope(`<ServiceMetadataPublisherID xmlns="${LOCATOR_NS}">SMP-1</ServiceMetadataPublisherID>`),
      ),
    ).toEqual({ operation: 'deleteSmp', smpId: 'SMP-1' });
    expect(
      parseSmlRequest(
        'manageparticipantidentifier',
        envelope(
          `<PageRequest xmlns="${LOCATOR_NS}"><ServiceMetadataPublisherID>SMP-1</ServiceMetadataPublisherID><NextPageIdentifier></NextPageIdentifier></PageRequest>`,
        ),
      ),
    ).toEqual({ operation: 'listParticipants', smpId: 'SMP-1', nextPageId: '' });
  });

  it('reads the migration records, PrepareToMigrate and Migrate, with their key', () => {
    const record = (root: string) =>
      envelope(
        `<${root} xmlns="${LOCATOR_NS}" xmlns:ns2="${IDS_NS}"><ServiceMetadataPublisherID>SMP-1</ServiceMetadataPublisherID>` +
          `<ns2:ParticipantIdentifier scheme="iso6523-actorid-upis">0208:0123456749</ns2:ParticipantIdentifier><MigrationKey>ab#CD$12efGH</MigrationKey></${root}>`,
      );
    const expected = {
      smpId: 'SMP-1',
      participant: { scheme: 'iso6523-actorid-upis', value: '0208:0123456749' },
      migrationKey: 'ab#CD$12efGH',
    };
    expect(parseSmlRequest('manageparticipantidentifier', record('PrepareMigrationRecord'))).toEqual({
      operation: 'prepareMigration',
      ...expected,
    });
    expect(parseSmlRequest('manageparticipantidentifier', record('CompleteMigrationRecord'))).toEqual({
      operation: 'migrate',
      ...expected,
    });
  });

  it.each([
    ['not XML', 'manageparticipantidentifier', 'hello', /not well-formed XML/],
    [
      'not a SOAP envelope',
      'manageparticipantidentifier',
      `<CreateParticipantIdentifier xmlns="${LOCATOR_NS}"/>`,
      /not a SOAP 1\.1 envelope/,
    ],
    [
      'an operation of the other service',
      'manageservicemetadata',
      envelope(`<CreateParticipantIdentifier xmlns="${LOCATOR_NS}"/>`),
      /is not an operation of \/manageservicemetadata/,
    ],
    [
      'an operation the stand-in does not implement',
      'manageparticipantidentifier',
      envelope(`<CreateList xmlns="${LOCATOR_NS}"/>`),
      /CreateList is not an operation/,
    ],
    [
      'a migration without its key',
      'manageparticipantidentifier',
      envelope(
        `<PrepareMigrationRecord xmlns="${LOCATOR_NS}"><ServiceMetadataPublisherID>S</ServiceMetadataPublisherID><ParticipantIdentifier xmlns="${IDS_NS}" scheme="iso6523-actorid-upis">0208:0123456749</ParticipantIdentifier></PrepareMigrationRecord>`,
      ),
      /MigrationKey is missing/,
    ],
    [
      'a participant without scheme',
      'manageparticipantidentifier',
      envelope(
        `<CreateParticipantIdentifier xmlns="${LOCATOR_NS}"><ServiceMetadataPublisherID>S</ServiceMetadataPublisherID><ParticipantIdentifier xmlns="${IDS_NS}">0208:0123456749</ParticipantIdentifier></CreateParticipantIdentifier>`,
      ),
      /Scheme cannot be null or empty/,
    ],
    [
      'an SMP create without endpoint',
      'manageservicemetadata',
      envelope(
        `<CreateServiceMetadataPublisherService xmlns="${LOCATOR_NS}"><ServiceMetadataPublisherID>S</ServiceMetadataPublisherID></CreateServiceMetadataPublisherService>`,
      ),
      /PublisherEndpoint is missing/,
    ],
  ] as const)('answers %s with a BadRequestFault', (_what, service, xml, message) => {
    let fault: unknown;
    try {
      parseSmlRequest(service, xml);
    } catch (err) {
      fault = err;
    }
    expect(fault).toBeInstanceOf(SmlFault);
    expect((fault as SmlFault).kind).toBe('BadRequestFault');
    expect((fault as SmlFault).message).toMatch(/^\[ERR-106\] /);
    expect((fault as SmlFault).message).toMatch(message);
  });
});

describe('writing the answers of the SML management interface', () => {
  it('writes a fault as BDMSL does: soap:Server, the message in faultstring and in the typed detail of the locator namespace', () => {
    const xml = faultEnvelope(new SmlFault('NotFoundFault', "The SMP 'SMP-1' doesn't exist."));
    const fault = childNamed(childNamed(parseXml(xml), SOAP_NS, 'Body')!, SOAP_NS, 'Fault')!;
    expect(childNamed(fault, '', 'faultcode')?.text).toBe('soap:Server');
    expect(childNamed(fault, '', 'faultstring')?.text).toBe("[ERR-100] The SMP 'SMP-1' doesn't exist.");
    const detail = childNamed(childNamed(fault, '', 'detail')!, LOCATOR_NS, 'NotFoundFault')!;
    expect(childNamed(detail, LOCATOR_NS, 'FaultMessage')?.text).toBe("[ERR-100] The SMP 'SMP-1' doesn't exist.");
  });

  it('writes an empty Body for Create/Update/Delete, the SMP record for Read, and a participant page with its next page id', () => {
    expect(childNamed(parseXml(answerEnvelope({ kind: 'empty' })), SOAP_NS, 'Body')?.children).toEqual([]);

    const record = childNamed(
      parseXml(
        answerEnvelope({
          kind: 'smp',
          smpId: 'SMP-1',
          addresses: { logicalAddress: 'https://smp.example.com', physicalAddress: '203.0.113.7' },
        }),
      ),
      SOAP_NS,
      'Body',
    )!.children[0]!;
    expect(record).toMatchObject({ namespace: LOCATOR_NS, name: 'ServiceMetadataPublisherService' });
    expect(childNamed(childNamed(record, LOCATOR_NS, 'PublisherEndpoint')!, LOCATOR_NS, 'LogicalAddress')?.text).toBe(
      'https://smp.example.com',
    );
    expect(childNamed(record, LOCATOR_NS, 'ServiceMetadataPublisherID')?.text).toBe('SMP-1');

    const page = childNamed(
      parseXml(
        answerEnvelope({
          kind: 'page',
          smpId: 'SMP-1',
          scheme: 'iso6523-actorid-upis',
          participantValues: ['0208:0123456749', '0088:<&>'],
          nextPageId: '100',
        }),
      ),
      SOAP_NS,
      'Body',
    )!.children[0]!;
    expect(page.children.map((child) => [child.name, child.text, child.attributes.scheme])).toEqual([
      ['ParticipantIdentifier', '0208:0123456749', 'iso6523-actorid-upis'],
      ['ParticipantIdentifier', '0088:<&>', 'iso6523-actorid-upis'],
      ['ServiceMetadataPublisherID', 'SMP-1', undefined],
      ['NextPageIdentifier', '100', undefined],
    ]);
  });
});

describe('the registrations of the stand-in SML', () => {
  const zone = 'sml.peppol.localhost';
  const ours: SmpOwner = { subject: 'CN=SMP local test', fingerprint: 'AA:01' };
  const theirs: SmpOwner = { subject: 'CN=Other SMP', fingerprint: 'BB:02' };
  const createSmp = (smpId: string, logicalAddress = `http://127.0.0.1:9/${smpId}`): SmlRequest => ({
    operation: 'createSmp',
    smpId,
    logicalAddress,
    physicalAddress: '127.0.0.1',
  });
  const participant = (
    operation: 'createParticipant' | 'deleteParticipant',
    smpId: string,
    value: string,
  ): SmlRequest => ({
    operation,
    smpId,
    participant: { scheme: 'iso6523-actorid-upis', value },
  });
  let dir: string;
  let file: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'sml-registrations-'));
    file = path.join(dir, 'peppol-network', 'sml-registrations.json');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const faultOf = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (err: SmlFault) => err.kind,
    );

  it('publishes a participant at its DNS name with the logical address of the SMP that registered it, at once, and forgets it on delete', async () => {
    const sml = await SmlRegistrations.open(file, zone, []);
    await sml.handle(createSmp('SMP-OURS', 'http://127.0.0.1:8085'), ours);
    const name = smlDnsName('0208:0123456749', zone);
    expect(sml.smpUrlAt(name)).toBeUndefined();

    await sml.handle(participant('createParticipant', 'SMP-OURS', '0208:0123456749'), ours);
    expect(sml.smpUrlAt(name)).toBe('http://127.0.0.1:8085');
    expect(sml.smpUrlAt(name.toUpperCase())).toBe('http://127.0.0.1:8085');

    await sml.handle(
      {
        operation: 'updateSmp',
        smpId: 'SMP-OURS',
        logicalAddress: 'https://smp.example.com',
        physicalAddress: '203.0.113.7',
      },
      ours,
    );
    expect(sml.smpUrlAt(name)).toBe('https://smp.example.com');

    await sml.handle(participant('deleteParticipant', 'SMP-OURS', '0208:0123456749'), ours);
    expect(sml.smpUrlAt(name)).toBeUndefined();
  });

  it("lets an SMP touch only its own record and participants: another certificate is Unauthorized, another SMP's participant NotFound", async () => {
    const sml = await SmlRegistrations.open(file, zone, []);
    await sml.handle(createSmp('SMP-OURS'), ours);
    await sml.handle(createSmp('SMP-THEIRS'), theirs);
    await sml.handle(participant('createParticipant', 'SMP-THEIRS', '0208:0123456749'), theirs);

    expect(await faultOf(sml.handle({ operation: 'readSmp', smpId: 'SMP-THEIRS' }, ours))).toBe('UnauthorizedFault');
    expect(await faultOf(sml.handle(participant('createParticipant', 'SMP-THEIRS', '0106:12345678'), ours))).toBe(
      'UnauthorizedFault',
    );
    expect(await faultOf(sml.handle(participant('deleteParticipant', 'SMP-OURS', '0208:0123456749'), ours))).toBe(
      'NotFoundFault',
    );
    // Taken by another SMP: BDMSL's "already exist".
    expect(await faultOf(sml.handle(participant('createParticipant', 'SMP-OURS', '0208:0123456749'), ours))).toBe(
      'BadRequestFault',
    );
    expect(sml.smpUrlAt(smlDnsName('0208:0123456749', zone))).toBe('http://127.0.0.1:9/SMP-THEIRS');
  });

  it('refuses what BDMSL refuses: a second SMP of the same ID, an unknown SMP, a static or repeated participant, a bad id or scheme', async () => {
    const sml = await SmlRegistrations.open(file, zone, ['0208:0987654394']);
    await sml.handle(createSmp('SMP-OURS'), ours);
    expect(await faultOf(sml.handle(createSmp('smp-ours'), theirs))).toBe('BadRequestFault');
    expect(await faultOf(sml.handle(createSmp('SMP_UNDERSCORE'), ours))).toBe('BadRequestFault');
    expect(
      await faultOf(sml.handle({ ...createSmp('SMP-X'), physicalAddress: 'smp.example.com' } as SmlRequest, ours)),
    ).toBe('BadRequestFault');
    expect(
      await faultOf(sml.handle({ ...createSmp('SMP-Y'), logicalAddress: 'ftp://smp.example.com' } as SmlRequest, ours)),
    ).toBe('BadRequestFault');
    expect(await faultOf(sml.handle({ operation: 'readSmp', smpId: 'SMP-NONE' }, ours))).toBe('NotFoundFault');
    expect(await faultOf(sml.handle(participant('createParticipant', 'SMP-NONE', '0106:12345678'), ours))).toBe(
      'NotFoundFault',
    );
    expect(await faultOf(sml.handle(participant('createParticipant', 'SMP-OURS', '0208:0987654394'), ours))).toBe(
      'BadRequestFault',
    );
    expect(await faultOf(sml.handle(participant('createParticipant', 'SMP-OURS', '0208:0123456748'), ours))).toBe(
      'BadRequestFault',
    );
    expect(
      await faultOf(
        sml.handle(
          {
            operation: 'createParticipant',
            smpId: 'SMP-OURS',
            participant: { scheme: 'other-scheme', value: '0106:12345678' },
          },
          ours,
        ),
      ),
    ).toBe('BadRequestFault');

    await sml.handle(participant('createParticipant', 'SMP-OURS', '0106:12345678'), ours);
    expect(await faultOf(sml.handle(participant('createParticipant', 'SMP-OURS', '0106:12345678'), ours))).toBe(
      'BadRequestFault',
    );
  });

  it("lists an SMP's participants page by page and removes them with the SMP", async () => {
    const sml = await SmlRegistrations.open(file, zone, []);
    await sml.handle(createSmp('SMP-OURS'), ours);
    const values = Array.from({ length: LIST_PAGE_SIZE + 1 }, (_, index) => `0106:${String(index).padStart(8, '0')}`);
    for (const value of values)
      await sml.handle(
        { operation: 'createParticipant', smpId: 'SMP-OURS', participant: { scheme: 'iso6523-actorid-upis', value } },
        ours,
      );

    const first = await sml.handle({ operation: 'listParticipants', smpId: 'SMP-OURS', nextPageId: '' }, ours);
    expect(first).toMatchObject({ kind: 'page', nextPageId: String(LIST_PAGE_SIZE) });
    const second = await sml.handle(
      { operation: 'listParticipants', smpId: 'SMP-OURS', nextPageId: String(LIST_PAGE_SIZE) },
      ours,
    );
    expect(second).toEqual({
      kind: 'page',
      smpId: 'SMP-OURS',
      scheme: 'iso6523-actorid-upis',
      participantValues: [values.at(-1)],
    });

    await sml.handle({ operation: 'deleteSmp', smpId: 'SMP-OURS' }, ours);
    expect(sml.smpUrlAt(smlDnsName(values[0]!, zone))).toBeUndefined();
  });

  describe('moving a participant to another SMP (PrepareToMigrate, then Migrate)', () => {
    const key = 'ab#CD$12efGH';
    const migration = (operation: 'prepareMigration' | 'migrate', smpId: string, migrationKey = key): SmlRequest => ({
      operation,
      smpId,
      participant: { scheme: 'iso6523-actorid-upis', value: '0208:0123456749' },
      migrationKey,
    });
    const twoSmps = async () => {
      const sml = await SmlRegistrations.open(file, zone, []);
      await sml.handle(createSmp('SMP-OLD'), theirs);
      await sml.handle(createSmp('SMP-NEW'), ours);
      await sml.handle(participant('createParticipant', 'SMP-OLD', '0208:0123456749'), theirs);
      return sml;
    };

    it('moves the participant to the SMP that presents the key its current SMP prepared, once', async () => {
      const sml = await twoSmps();
      await sml.handle(migration('prepareMigration', 'SMP-OLD'), theirs);
      expect(sml.smpOf('0208:0123456749')?.id).toBe('SMP-OLD');
      await sml.handle(migration('migrate', 'SMP-NEW'), ours);
      expect(sml.smpUrlAt(smlDnsName('0208:0123456749', zone))).toBe('http://127.0.0.1:9/SMP-NEW');
      // The key is used up, and the old SMP no longer holds the participant.
      expect(await faultOf(sml.handle(migration('migrate', 'SMP-NEW'), ours))).toBe('NotFoundFault');
      expect(await faultOf(sml.handle(participant('deleteParticipant', 'SMP-OLD', '0208:0123456749'), theirs))).toBe(
        'NotFoundFault',
      );
    });

    it('refuses a migration nobody prepared, a wrong key, a prepare by an SMP that does not hold the participant, and a key outside the rule', async () => {
      const sml = await twoSmps();
      expect(await faultOf(sml.handle(migration('migrate', 'SMP-NEW'), ours))).toBe('NotFoundFault');
      expect(await faultOf(sml.handle(migration('prepareMigration', 'SMP-NEW'), ours))).toBe('NotFoundFault');
      expect(await faultOf(sml.handle(migration('prepareMigration', 'SMP-OLD', 'short'), theirs))).toBe(
        'BadRequestFault',
      );
      await sml.handle(migration('prepareMigration', 'SMP-OLD'), theirs);
      expect(await faultOf(sml.handle(migration('migrate', 'SMP-NEW', 'zz#YY$98xxWW'), ours))).toBe('NotFoundFault');
      expect(sml.smpOf('0208:0123456749')?.id).toBe('SMP-OLD');
    });
  });

  it('keeps its registrations across a restart, in DATA_DIR/peppol-network/sml-registrations.json', async () => {
    const before = await SmlRegistrations.open(file, zone, []);
    await Promise.all([
      before.handle(createSmp('SMP-OURS', 'http://127.0.0.1:8085'), ours),
      before.handle(createSmp('SMP-THEIRS'), theirs),
    ]);
    await before.handle(participant('createParticipant', 'SMP-OURS', '0208:0123456749'), ours);

    const after = await SmlRegistrations.open(file, zone, []);
    expect(after.smpUrlAt(smlDnsName('0208:0123456749', zone))).toBe('http://127.0.0.1:8085');
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({
      participants: [{ value: '0208:0123456749', smpId: 'SMP-OURS' }],
    });
    expect(await faultOf(after.handle({ operation: 'readSmp', smpId: 'SMP-OURS' }, theirs))).toBe('UnauthorizedFault');
  });
});
