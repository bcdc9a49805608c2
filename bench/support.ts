import { performance } from 'node:perf_hooks';

/** Measuring helpers shared by the benchmarks. */

export interface Measurement {
  count: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

export function summarize(latencies: number[], seconds: number): Measurement {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    count: sorted.length,
    seconds,
    perSecond: sorted.length / seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
  };
}

/** A rate only: `count` operations took `seconds` (latencies unknown). */
export function throughput(count: number, seconds: number): Measurement {
  return { count, seconds, perSecond: count / seconds, p50: Number.NaN, p99: Number.NaN };
}

/**
 * `operations` run by `concurrency` closed-loop workers; each operation's latency is recorded.
 * With `maxSeconds`, no operation starts after that time: a slow engine ends with what it reached.
 */
export async function closedLoop(
  operations: number,
  concurrency: number,
  operation: (index: number) => Promise<unknown>,
  maxSeconds = Number.POSITIVE_INFINITY,
): Promise<Measurement> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const end = started + maxSeconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < operations && performance.now() < end) {
        const index = next;
        next += 1;
        const t0 = performance.now();
        await operation(index);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return summarize(latencies, (performance.now() - started) / 1000);
}

/** Operations started at a fixed rate (open loop), whatever the answers' latency. */
export async function openLoop(
  operations: number,
  perSecond: number,
  operation: (index: number) => Promise<void>,
): Promise<Measurement> {
  const latencies: number[] = [];
  const started = performance.now();
  const runs: Promise<void>[] = [];
  for (let index = 0; index < operations; index += 1) {
    const due = started + (index * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const t0 = performance.now();
    runs.push(operation(index).then(() => void latencies.push(performance.now() - t0)));
  }
  await Promise.all(runs);
  return summarize(latencies, (performance.now() - started) / 1000);
}

/** Sequential calls from a single client. */
export async function singleClient(
  operations: number,
  operation: (index: number) => Promise<unknown>,
): Promise<Measurement> {
  return closedLoop(operations, 1, operation);
}

export const ms = (value: number) => `${value.toFixed(1)} ms`;

/** A figure beside its floor, and the ratio the issue's targets speak of. */
const rate = (measurement: Measurement) =>
  `${measurement.perSecond.toFixed(1)}/s${Number.isNaN(measurement.p50) ? '' : ` (p50 ${ms(measurement.p50)}, p99 ${ms(measurement.p99)})`}`;

/** Without a target, the ratio is a figure for sizing. */
export function versus(label: string, measured: Measurement, floor: Measurement, target?: number): string {
  const ratio = measured.perSecond / floor.perSecond;
  const verdict = target === undefined ? '(no target)' : `(target ≥ ${target}) ${ratio >= target ? 'MET' : 'NOT MET'}`;
  return `${label}: ${rate(measured)} vs floor ${rate(floor)}: ratio ${ratio.toFixed(2)} ${verdict}`;
}
