import { z } from 'zod';

/**
 * Our access point's seat id (its certificate's CN, e.g. `PBE000001`), as its
 * `GET /health` names it: the one place it is configured is the access
 * point's own certificate. Asked once and kept; an access point that does not
 * answer is asked again next time (the caller's retry).
 */

const healthSchema = z.object({ seat: z.string().regex(/^P[A-Z]{2}[0-9]{6}$/, 'a Peppol seat id such as PBE000001') });

export type SeatSource = () => Promise<string>;

export function accessPointSeat(baseUrl: string): SeatSource {
  let seat: string | undefined;
  return async () => {
    if (seat) return seat;
    let body: unknown;
    try {
      const response = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(5_000) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      body = await response.json();
    } catch (err) {
      throw new Error(`our access point at ${baseUrl} did not name its seat id: ${(err as Error).message}`, { cause: err });
    }
    const parsed = healthSchema.safeParse(body);
    if (!parsed.success) throw new Error(`our access point at ${baseUrl} named no usable seat id: ${parsed.error.issues[0]?.message ?? ''}`);
    seat = parsed.data.seat;
    return seat;
  };
}
