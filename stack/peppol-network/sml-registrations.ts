import { z } from 'zod';

import { peppolIdProblem } from '../../domain/peppol/ids';
import { migrationKeyProblem } from '../../domain/peppol/migration-key';
import { PARTICIPANT_SCHEME, smlDnsName } from '../../domain/peppol/sml';
import { SmlFault, type SmlAnswer, type SmlRequest } from './sml-soap';
import { readStateFile, writeStateFile } from './state-file';

/**
 * What the stand-in SML keeps: the SMPs registered through its management
 * interface (ID, addresses, the client certificate that owns each) and the
 * participants each registered, with BDMSL's rules for changing them. Kept in
 * one JSON file (DATA_DIR/peppol-network/sml-registrations.json, state-file.ts).
 * The DNS server asks it at every query, so a registration is published at once.
 */

/** Who called: the SML knows an SMP by the client certificate that created it. */
export interface SmpOwner {
  subject: string;
  /** SHA-256 fingerprint of the certificate, as Node gives it (`AB:CD:…`). */
  fingerprint: string;
}

/**
 * A page of the List operation; BDMSL pages too.
 * @internal
 */
export const LIST_PAGE_SIZE = 100;

const fileSchema = z.object({
  smps: z.array(
    z.object({
      id: z.string(),
      logicalAddress: z.string(),
      physicalAddress: z.string(),
      owner: z.object({ subject: z.string(), fingerprint: z.string() }),
    }),
  ),
  participants: z.array(z.object({ value: z.string(), smpId: z.string() })),
  /** Prepared migrations: the participant, the SMP that holds it and the key another SMP may take it over with (once). */
  migrations: z
    .array(z.object({ value: z.string(), smpId: z.string(), key: z.string(), preparedAt: z.string() }))
    .default([]),
});
type State = z.output<typeof fileSchema>;
type Smp = State['smps'][number];

// The SMP ID also names DNS records in BDMSL (`{SMP ID}.publisher.{zone}`): a DNS label.
const SMP_ID = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$/;

const badRequest = (message: string) => new SmlFault('BadRequestFault', message);
const sameValue = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

function checkAddresses(request: { logicalAddress: string; physicalAddress: string }): void {
  let url: URL | undefined;
  try {
    url = new URL(request.logicalAddress);
  } catch {
    // reported below
  }
  // `!` delimits the NAPTR regexp the address is published in.
  if (
    !url ||
    !['http:', 'https:'].includes(url.protocol) ||
    url.search ||
    url.hash ||
    request.logicalAddress.includes('!')
  ) {
    throw badRequest(
      `The logical address '${request.logicalAddress}' must be an http(s) URL without query, fragment or '!'`,
    );
  }
  if (!IPV4.test(request.physicalAddress))
    throw badRequest(`The physical address '${request.physicalAddress}' must be an IPv4 address`);
}

/** The request of one operation. */
type RequestOf<O extends SmlRequest['operation']> = SmlRequest & { operation: O };
/** The operations on an SMP that exists, by the certificate that owns it: every one but creating an SMP. */
type OnOwnSmp = Exclude<SmlRequest['operation'], 'createSmp'>;
const isOnOwnSmp = (request: SmlRequest): request is RequestOf<OnOwnSmp> => request.operation !== 'createSmp';

/** What an operation on an owned SMP works on. */
interface OwnSmpContext {
  state: State;
  /** Participants published statically (participants.json): registered, but by no SMP of this interface. */
  reserved: readonly string[];
  /** The caller's SMP the request names. */
  smp: Smp;
}

/** What an operation comes to: its answer, and the state to write before answering when it changes any. */
interface Outcome {
  answer: SmlAnswer;
  next?: State;
}

const EMPTY: SmlAnswer = { kind: 'empty' };

function createSmp(
  request: { smpId: string; logicalAddress: string; physicalAddress: string },
  state: State,
  caller: SmpOwner,
): Outcome {
  if (!SMP_ID.test(request.smpId))
    throw badRequest(`The SMP ID '${request.smpId}' must be letters, digits and inner hyphens (at most 63)`);
  checkAddresses(request);
  if (state.smps.some((smp) => sameValue(smp.id, request.smpId)))
    throw badRequest(`The SMP '${request.smpId}' already exists`);
  const { logicalAddress, physicalAddress } = request;
  return {
    answer: EMPTY,
    next: { ...state, smps: [...state.smps, { id: request.smpId, logicalAddress, physicalAddress, owner: caller }] },
  };
}

function readSmp(_request: RequestOf<'readSmp'>, { smp }: OwnSmpContext): Outcome {
  return {
    answer: {
      kind: 'smp',
      smpId: smp.id,
      addresses: { logicalAddress: smp.logicalAddress, physicalAddress: smp.physicalAddress },
    },
  };
}

function updateSmp(request: RequestOf<'updateSmp'>, { state, smp }: OwnSmpContext): Outcome {
  checkAddresses(request);
  const updated = { ...smp, logicalAddress: request.logicalAddress, physicalAddress: request.physicalAddress };
  return { answer: EMPTY, next: { ...state, smps: state.smps.map((entry) => (entry === smp ? updated : entry)) } };
}

function deleteSmp(_request: RequestOf<'deleteSmp'>, { state, smp }: OwnSmpContext): Outcome {
  // Its participants go with it: nothing may point at an SMP that is gone.
  return {
    answer: EMPTY,
    next: {
      smps: state.smps.filter((entry) => entry !== smp),
      participants: state.participants.filter((entry) => entry.smpId !== smp.id),
      migrations: state.migrations.filter((entry) => entry.smpId !== smp.id),
    },
  };
}

function createParticipant(request: RequestOf<'createParticipant'>, context: OwnSmpContext): Outcome {
  const { state, smp } = context;
  const { scheme, value } = request.participant;
  if (scheme.toLowerCase() !== PARTICIPANT_SCHEME)
    throw badRequest(`The participant identifier scheme '${scheme}' is not ${PARTICIPANT_SCHEME}`);
  const problem = peppolIdProblem(value);
  if (problem) throw badRequest(`The participant identifier [${value}] is not valid: ${problem}`);
  if (
    context.reserved.some((entry) => sameValue(entry, value)) ||
    state.participants.some((entry) => sameValue(entry.value, value))
  ) {
    throw badRequest(`The participant identifier [${value}] with scheme: [${scheme}] already exist`);
  }
  return { answer: EMPTY, next: { ...state, participants: [...state.participants, { value, smpId: smp.id }] } };
}

/**
 * The participant as the caller's SMP registered it. Another SMP's participant is not found under this one: an
 * SMP can only see and touch its own.
 */
function ownParticipant(
  { scheme, value }: { scheme: string; value: string },
  { state, smp }: OwnSmpContext,
): State['participants'][number] {
  const registered = state.participants.find((entry) => entry.smpId === smp.id && sameValue(entry.value, value));
  if (!registered || scheme.toLowerCase() !== PARTICIPANT_SCHEME) {
    throw new SmlFault(
      'NotFoundFault',
      `The participant identifier [${value}] with scheme: [${scheme}] doesn't exist for the SMP '${smp.id}'`,
    );
  }
  return registered;
}

function deleteParticipant(request: RequestOf<'deleteParticipant'>, context: OwnSmpContext): Outcome {
  const { state } = context;
  const registered = ownParticipant(request.participant, context);
  return {
    answer: EMPTY,
    next: {
      ...state,
      participants: state.participants.filter((entry) => entry !== registered),
      migrations: state.migrations.filter((entry) => !sameValue(entry.value, request.participant.value)),
    },
  };
}

function prepareMigration(request: RequestOf<'prepareMigration'>, context: OwnSmpContext): Outcome {
  const { state, smp } = context;
  const { value } = request.participant;
  // Only the SMP that publishes the participant now can let it go.
  const registered = ownParticipant(request.participant, context);
  const problem = migrationKeyProblem(request.migrationKey);
  if (problem) throw badRequest(`The migration key is not valid: ${problem}`);
  // A new key replaces the one prepared before.
  const migration = {
    value: registered.value,
    smpId: smp.id,
    key: request.migrationKey,
    preparedAt: new Date().toISOString(),
  };
  return {
    answer: EMPTY,
    next: { ...state, migrations: [...state.migrations.filter((entry) => !sameValue(entry.value, value)), migration] },
  };
}

function migrate(request: RequestOf<'migrate'>, { state, smp }: OwnSmpContext): Outcome {
  const { scheme, value } = request.participant;
  const migration = state.migrations.find(
    (entry) => sameValue(entry.value, value) && entry.key === request.migrationKey && entry.smpId !== smp.id,
  );
  if (!migration || scheme.toLowerCase() !== PARTICIPANT_SCHEME) {
    throw new SmlFault(
      'NotFoundFault',
      `No migration of the participant identifier [${value}] with scheme: [${scheme}] was prepared with this migration key`,
    );
  }
  // The participant moves to the new SMP (its NAPTR record names it from now on); the key is used up.
  return {
    answer: EMPTY,
    next: {
      ...state,
      participants: state.participants.map((entry) =>
        sameValue(entry.value, value) ? { value: entry.value, smpId: smp.id } : entry,
      ),
      migrations: state.migrations.filter((entry) => entry !== migration),
    },
  };
}

function listParticipants(request: RequestOf<'listParticipants'>, { state, smp }: OwnSmpContext): Outcome {
  const start = request.nextPageId === '' ? 0 : Number(request.nextPageId);
  if (!Number.isSafeInteger(start) || start < 0)
    throw badRequest(`The page identifier '${request.nextPageId}' is not one this SML gave`);
  const own = state.participants.filter((entry) => entry.smpId === smp.id).map((entry) => entry.value);
  const next = start + LIST_PAGE_SIZE < own.length ? String(start + LIST_PAGE_SIZE) : undefined;
  return {
    answer: {
      kind: 'page',
      smpId: smp.id,
      scheme: PARTICIPANT_SCHEME,
      participantValues: own.slice(start, start + LIST_PAGE_SIZE),
      ...(next && { nextPageId: next }),
    },
  };
}

/** Each operation on an owned SMP, as BDMSL carries it out. */
const ON_OWN_SMP: { [O in OnOwnSmp]: (request: RequestOf<O>, context: OwnSmpContext) => Outcome } = {
  readSmp,
  updateSmp,
  deleteSmp,
  createParticipant,
  deleteParticipant,
  prepareMigration,
  migrate,
  listParticipants,
};

/** Hands the request to its operation's handler (the table's type pairs each operation with its request). */
function onOwnSmp<O extends OnOwnSmp>(request: RequestOf<O>, context: OwnSmpContext): Outcome {
  const operation: O = request.operation;
  return ON_OWN_SMP[operation](request, context);
}

export class SmlRegistrations {
  /** Changes one at a time: each is written before the next one reads the state. */
  private queue: Promise<unknown> = Promise.resolve();
  /** The participants by the DNS name the SML publishes them at. */
  private byDnsName = new Map<string, State['participants'][number]>();

  private constructor(
    private readonly file: string,
    private readonly zone: string,
    /** Participants published statically (participants.json): registered, but by no SMP of this interface. */
    private readonly reserved: string[],
    private state: State,
  ) {
    this.index();
  }

  static async open(file: string, zone: string, reserved: string[]): Promise<SmlRegistrations> {
    const state = await readStateFile(
      file,
      fileSchema,
      { smps: [], participants: [], migrations: [] },
      'a stand-in SML registrations file',
    );
    return new SmlRegistrations(file, zone.toLowerCase(), reserved, state);
  }

  /** The SMP URL a participant's NAPTR record names, for a DNS name of the zone; undefined when not registered here. */
  smpUrlAt(dnsName: string): string | undefined {
    const participant = this.byDnsName.get(dnsName.toLowerCase());
    return participant && this.state.smps.find((smp) => smp.id === participant.smpId)?.logicalAddress;
  }

  /** The SMP a participant is registered for through this interface (its logical address and the certificate that owns it). */
  smpOf(participantValue: string): { id: string; logicalAddress: string; owner: SmpOwner } | undefined {
    const participant = this.state.participants.find((entry) => sameValue(entry.value, participantValue));
    const smp = participant && this.state.smps.find((entry) => entry.id === participant.smpId);
    return smp && { id: smp.id, logicalAddress: smp.logicalAddress, owner: smp.owner };
  }

  /** Carries out one management operation for the caller, as BDMSL would; a refusal throws SmlFault. */
  handle(request: SmlRequest, caller: SmpOwner): Promise<SmlAnswer> {
    const run = this.queue.then(() => this.apply(request, caller));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async apply(request: SmlRequest, caller: SmpOwner): Promise<SmlAnswer> {
    // Every operation but creating an SMP is refused (not found, not the caller's) before its request is looked at.
    const outcome = isOnOwnSmp(request)
      ? onOwnSmp(request, { state: this.state, reserved: this.reserved, smp: this.ownSmp(request.smpId, caller) })
      : createSmp(request, this.state, caller);
    if (outcome.next) await this.save(outcome.next);
    return outcome.answer;
  }

  /** The SMP, when it exists and the caller's certificate owns it. */
  private ownSmp(smpId: string, caller: SmpOwner): Smp {
    const smp = this.state.smps.find((entry) => sameValue(entry.id, smpId));
    if (!smp) throw new SmlFault('NotFoundFault', `The SMP '${smpId}' doesn't exist.`);
    if (smp.owner.fingerprint !== caller.fingerprint) {
      throw new SmlFault(
        'UnauthorizedFault',
        `The SMP '${smp.id}' is not managed by the certificate ${caller.subject}`,
      );
    }
    return smp;
  }

  private async save(next: State): Promise<void> {
    await writeStateFile(this.file, next);
    this.state = next;
    this.index();
  }

  private index(): void {
    this.byDnsName = new Map(this.state.participants.map((entry) => [smlDnsName(entry.value, this.zone), entry]));
  }
}
