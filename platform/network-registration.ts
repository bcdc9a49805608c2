/**
 * Client of our access point's SML registration (access-point/, SmlRoutes):
 * it registers a participant of our SMP in the SML, so that the participant's
 * NAPTR record names our SMP, and unregisters it. Both are idempotent, so a
 * workflow may repeat them; a failure says whether trying again can help.
 */

/** Registration did not happen; `permanent` when another attempt would get the same answer. */
export class SmlRegistrationError extends Error {
  override name = 'SmlRegistrationError';
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

export interface SmlRegistration {
  /** Registers a participant value such as `0208:0123456749` (scheme iso6523-actorid-upis) under our SMP. */
  register(participant: string): Promise<void>;
  /** Removes it from the SML; a participant that is not registered for our SMP is done already. */
  unregister(participant: string): Promise<void>;
}

/**
 * Longer than the access point's own limits (each SML call connects in 10 s and is answered in 20 s; a
 * registration makes up to three calls, and more to page through our participants after a repeat), so
 * the access point normally answers first.
 */
const REQUEST_TIMEOUT_MS = 120_000;

export function smlRegistration(accessPointUrl: string): SmlRegistration {
  const call = async (method: 'PUT' | 'DELETE', participant: string, expected: 'registered' | 'unregistered') => {
    const url = `${accessPointUrl}/sml/participants/${encodeURIComponent(participant)}`;
    const what = `${expected === 'registered' ? 'registering' : 'unregistering'} ${participant} in the SML`;
    let response: Response;
    try {
      response = await fetch(url, { method, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    } catch (err) {
      throw new SmlRegistrationError(`${what}: our access point at ${accessPointUrl} could not be reached (${String((err as Error).cause ?? err)})`, false);
    }
    const body = (await response.json().catch(() => ({}))) as { status?: string; error?: string; permanent?: boolean };
    if (response.status === 200 && body.status === expected) return;
    const reason = body.error ?? `our access point answered HTTP ${response.status}`;
    // 400: the value is not a Peppol participant value, which no retry mends; 422: the SML's final refusal.
    const permanent = response.status === 400 || response.status === 422 || (response.status !== 503 && body.permanent === true);
    throw new SmlRegistrationError(`${what}: ${reason}`, permanent);
  };
  return {
    register: (participant) => call('PUT', participant, 'registered'),
    unregister: (participant) => call('DELETE', participant, 'unregistered'),
  };
}
