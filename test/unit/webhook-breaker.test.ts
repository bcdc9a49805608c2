import {
  afterAttempts,
  BREAKER_FIRST_PAUSE_MS,
  BREAKER_MAX_PAUSE_MS,
  BREAKER_THRESHOLD,
  breakerStep,
  CLOSED,
  failingTooLong,
  probeNow,
  retryDelayMs,
  type BreakerState,
} from '../../domain/webhook-breaker';

const failures = (count: number) => Array<'failed'>(count).fill('failed');

describe('a webhook endpoint\u2019s circuit breaker', () => {
  it('when fewer than ten attempts in a row fail, then it stays closed and remembers since when it fails', () => {
    const state = afterAttempts(CLOSED, failures(BREAKER_THRESHOLD - 1), 1_000);
    expect(state).toEqual({ failures: 9, failingSince: 1_000, pausedUntil: null, lastPauseMs: 0 });
    expect(breakerStep(state, 2_000)).toBe('closed');
    expect(afterAttempts(state, ['succeeded'], 3_000)).toEqual(CLOSED);
  });

  it('when the tenth fails, then it opens for a minute; the pause ends half-open, and each failed probe doubles it up to an hour', () => {
    let state = afterAttempts(CLOSED, failures(BREAKER_THRESHOLD), 0);
    expect(state.pausedUntil).toBe(BREAKER_FIRST_PAUSE_MS);
    expect(breakerStep(state, BREAKER_FIRST_PAUSE_MS - 1)).toBe('paused');
    expect(breakerStep(state, BREAKER_FIRST_PAUSE_MS)).toBe('half-open');
    const pauses: number[] = [];
    let now = BREAKER_FIRST_PAUSE_MS;
    for (let probe = 0; probe < 8; probe += 1) {
      state = afterAttempts(state, ['failed'], now);
      pauses.push(state.lastPauseMs / 60_000);
      now = state.pausedUntil!;
    }
    expect(pauses).toEqual([2, 4, 8, 16, 32, 60, 60, 60]);
    expect(state.lastPauseMs).toBe(BREAKER_MAX_PAUSE_MS);
    expect(afterAttempts(state, ['succeeded'], now)).toEqual(CLOSED);
  });

  it('when attempts that were in flight fail during the pause, then they count but neither lengthen nor restart it', () => {
    const opened = afterAttempts(CLOSED, failures(BREAKER_THRESHOLD), 0);
    const later = afterAttempts(opened, failures(3), 5_000);
    expect(later).toEqual({ ...opened, failures: BREAKER_THRESHOLD + 3 });
  });

  it('when someone says the endpoint is mended, then a pause ends at once and the next failure pauses it longer', () => {
    const opened = afterAttempts(CLOSED, failures(BREAKER_THRESHOLD), 0);
    const probing = probeNow(opened);
    expect(breakerStep(probing, 1)).toBe('half-open');
    expect(afterAttempts(probing, ['failed'], 10).lastPauseMs).toBe(2 * BREAKER_FIRST_PAUSE_MS);
    expect(probeNow(CLOSED)).toBe(CLOSED);
  });

  it('when it has failed without a success for the disable period, then it is to be disabled, not a moment before', () => {
    const state: BreakerState = { ...CLOSED, failures: 200, failingSince: 1_000 };
    expect(failingTooLong(state, 1_000 + 5 * 86_400_000 - 1, 5 * 86_400_000)).toBe(false);
    expect(failingTooLong(state, 1_000 + 5 * 86_400_000, 5 * 86_400_000)).toBe(true);
    expect(failingTooLong(CLOSED, Number.MAX_SAFE_INTEGER, 1)).toBe(false);
  });

  it('a delivery\u2019s attempts back off from the initial interval, doubling (the spec\u2019s 30 s, 1, 2 and 4 minutes)', () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(30_000, attempt) / 1000)).toEqual([30, 60, 120, 240]);
  });
});
