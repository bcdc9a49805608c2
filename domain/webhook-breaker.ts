/**
 * A webhook endpoint's circuit breaker, as its delivery workflow keeps it (workflows/webhook-endpoint.ts). Pure:
 * the workflow passes its own (deterministic) clock.
 *
 *   closed ──BREAKER_THRESHOLD failed attempts in a row──▶ open (paused: nothing is attempted)
 *   open ──the pause ran out──▶ half-open: one delivery is attempted
 *   half-open ──it succeeded──▶ closed          half-open ──it failed──▶ open again, the pause doubled (at most an hour)
 *   any ──failing without one success for the disable period (WEBHOOK_DISABLE_AFTER)──▶ the webhook is disabled
 *   any ──a redelivery or the webhook enabled again (someone says it is mended)──▶ half-open at once
 *
 * A delivery's own attempts (5, with backoff) go on as before while the breaker is closed; a pause only holds
 * them back, so an endpoint that is down does not burn every delivery's attempts in its first minutes.
 */

/** Failed attempts in a row, over all of an endpoint's deliveries, that open the breaker. */
export const BREAKER_THRESHOLD = 10;
/**
 * The first pause; each failed probe doubles it, up to BREAKER_MAX_PAUSE_MS.
 * @internal
 */
export const BREAKER_FIRST_PAUSE_MS = 60_000;
/** @internal */
export const BREAKER_MAX_PAUSE_MS = 60 * 60_000;

export interface BreakerState {
  /** Failed attempts since the last success. */
  failures: number;
  /** When the first of them was made (ms); null while the last attempt succeeded. */
  failingSince: number | null;
  /** While open: until when nothing is attempted (ms). */
  pausedUntil: number | null;
  /** The pause the breaker opened with last (ms); 0 before it ever opened, and again after a success. */
  lastPauseMs: number;
}

export const CLOSED: BreakerState = { failures: 0, failingSince: null, pausedUntil: null, lastPauseMs: 0 };

export type BreakerStep = 'closed' | 'paused' | 'half-open';

/** What the endpoint may do now: attempt its due deliveries, wait out a pause, or try one (the probe). */
export function breakerStep(state: BreakerState, now: number): BreakerStep {
  if (state.failures < BREAKER_THRESHOLD) return 'closed';
  return state.pausedUntil !== null && now < state.pausedUntil ? 'paused' : 'half-open';
}

/** After a round of attempts: a success closes it; failures count, and open it (again) at the threshold. */
export function afterAttempts(
  state: BreakerState,
  outcomes: readonly ('succeeded' | 'failed')[],
  now: number,
): BreakerState {
  if (outcomes.includes('succeeded')) return CLOSED;
  const failed = outcomes.length;
  if (failed === 0) return state;
  const failures = state.failures + failed;
  const failingSince = state.failingSince ?? now;
  if (failures < BREAKER_THRESHOLD) return { ...state, failures, failingSince };
  // Attempts that were in flight when it opened end during the pause: they count, and change nothing else.
  if (breakerStep(state, now) === 'paused') return { ...state, failures, failingSince };
  const pauseMs =
    state.lastPauseMs === 0 ? BREAKER_FIRST_PAUSE_MS : Math.min(BREAKER_MAX_PAUSE_MS, state.lastPauseMs * 2);
  return { failures, failingSince, pausedUntil: now + pauseMs, lastPauseMs: pauseMs };
}

/** Someone says the endpoint is mended (a redelivery, the webhook enabled again): the next round probes it at once. */
export function probeNow(state: BreakerState): BreakerState {
  return state.pausedUntil === null ? state : { ...state, pausedUntil: null };
}

/** Failing, without one success, for at least `disableAfterMs`: the webhook is disabled. */
export function failingTooLong(state: BreakerState, now: number, disableAfterMs: number): boolean {
  return state.failingSince !== null && now - state.failingSince >= disableAfterMs;
}

/** When a delivery's attempt `attempt` (1-based, of its current round) failed: the wait before the next one. */
export function retryDelayMs(initialMs: number, attempt: number): number {
  return initialMs * 2 ** (attempt - 1);
}
