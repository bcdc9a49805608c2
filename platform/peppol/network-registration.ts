/**
 * Clients of what our access point tells the Peppol network on our SMP's
 * behalf, with the SMP's certificate (access-point/: SmlRoutes,
 * DirectoryRoutes): the SML registration of a participant, so that its NAPTR
 * record names our SMP (or its migration from or to another SMP), and the
 * Peppol Directory's notice that its business card is there to read, or gone. Each is idempotent, so a workflow may repeat
 * it; a failure says whether trying again can help.
 */

/** It did not happen; `permanent` when another attempt would get the same answer. */
export class NetworkRegistrationError extends Error {
  override name = 'NetworkRegistrationError';
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

export interface SmlRegistration {
  /**
   * Registers a participant value such as `0208:0123456749` (scheme iso6523-actorid-upis) under our SMP; with
   * the migration key its current SMP prepared, takes it over from that SMP (Migrate).
   */
  register(participant: string, migrationKey?: string): Promise<void>;
  /** Removes it from the SML; a participant that is not registered for our SMP is done already. */
  unregister(participant: string): Promise<void>;
  /** Lets another SMP take a participant of ours over with this key (PrepareToMigrate). */
  prepareMigration(participant: string, migrationKey: string): Promise<void>;
}

export interface BusinessCardPublishing {
  /** Asks the Directory to read the participant's business card from our SMP; `skipped` when no Directory is configured. */
  publish(participant: string): Promise<'published' | 'skipped'>;
  /** Asks the Directory to drop it; `skipped` when no Directory is configured. */
  withdraw(participant: string): Promise<'removed' | 'skipped'>;
}

/**
 * Longer than the access point's own limits (each SML call connects in 10 s and is answered in 20 s; a
 * registration makes up to three calls, and more to page through our participants after a repeat), so
 * the access point normally answers first.
 */
const REQUEST_TIMEOUT_MS = 120_000;

/** One request to our access point, done when it answers 200 with one of the `expected` statuses. */
async function askAccessPoint<Status extends string>(
  accessPointUrl: string,
  request: { method: 'PUT' | 'DELETE'; path: string; body?: Record<string, string> },
  what: string,
  expected: Status[],
): Promise<Status> {
  let response: Response;
  try {
    response = await fetch(`${accessPointUrl}${request.path}`, {
      method: request.method,
      ...(request.body && { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(request.body) }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (err) {
    throw new NetworkRegistrationError(
      `${what}: our access point at ${accessPointUrl} could not be reached (${String((err as Error).cause ?? err)})`,
      false,
    );
  }
  const body = (await response.json().catch(() => ({}))) as { status?: string; error?: string; permanent?: boolean };
  const status = expected.find((candidate) => candidate === body.status);
  if (response.status === 200 && status) return status;
  const reason = body.error ?? `our access point answered HTTP ${response.status}`;
  // 400: the value is not a Peppol participant value, which no retry mends; 422: a final refusal of the SML or the Directory.
  const permanent =
    response.status === 400 || response.status === 422 || (response.status !== 503 && body.permanent === true);
  throw new NetworkRegistrationError(`${what}: ${reason}`, permanent);
}

export function smlRegistration(accessPointUrl: string): SmlRegistration {
  const path = (participant: string) => `/sml/participants/${encodeURIComponent(participant)}`;
  return {
    register: async (participant, migrationKey) => {
      const request = {
        method: 'PUT',
        path: path(participant),
        ...(migrationKey !== undefined && { body: { migrationKey } }),
      } as const;
      await askAccessPoint(
        accessPointUrl,
        request,
        `${migrationKey === undefined ? 'registering' : 'migrating'} ${participant} in the SML`,
        ['registered'],
      );
    },
    unregister: async (participant) => {
      await askAccessPoint(
        accessPointUrl,
        { method: 'DELETE', path: path(participant) },
        `unregistering ${participant} in the SML`,
        ['unregistered'],
      );
    },
    prepareMigration: async (participant, migrationKey) => {
      await askAccessPoint(
        accessPointUrl,
        { method: 'PUT', path: `${path(participant)}/migration-key`, body: { migrationKey } },
        `preparing the migration of ${participant} in the SML`,
        ['prepared'],
      );
    },
  };
}

export function businessCardPublishing(accessPointUrl: string): BusinessCardPublishing {
  const path = (participant: string) => `/directory/participants/${encodeURIComponent(participant)}`;
  return {
    publish: (participant) =>
      askAccessPoint(
        accessPointUrl,
        { method: 'PUT', path: path(participant) },
        `publishing the business card of ${participant} in the Peppol Directory`,
        ['published', 'skipped'],
      ),
    withdraw: (participant) =>
      askAccessPoint(
        accessPointUrl,
        { method: 'DELETE', path: path(participant) },
        `removing the business card of ${participant} from the Peppol Directory`,
        ['removed', 'skipped'],
      ),
  };
}
