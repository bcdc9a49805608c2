import { performance } from 'node:perf_hooks';

/** How long this thread's event loop was busy while `work` ran, in milliseconds. */
const eventLoopBusyDuring = async (work: () => unknown): Promise<number> => {
  const start = performance.eventLoopUtilization();
  await work();
  return performance.eventLoopUtilization(start).active;
};

/**
 * The least ratio, over up to `tries` rounds, of the event-loop time `work` took to the time `yardstick` (the same
 * work done on this thread) took just before it, stopping at the first under `bound`. Each round measures both
 * under the same load, so a machine busy with other things slows both alike; work done on the loop costs at least
 * its yardstick in every round, so the least ratio under the bound is a sound proof that it was not.
 */
export const leastBusyRatio = async (
  work: () => Promise<void>,
  yardstick: () => unknown,
  bound: number,
  tries = 5,
): Promise<number> => {
  let least = Number.POSITIVE_INFINITY;
  for (let i = 0; i < tries && least >= bound; i += 1) {
    const onThisThread = await eventLoopBusyDuring(yardstick);
    least = Math.min(least, (await eventLoopBusyDuring(work)) / onThisThread);
  }
  return least;
};
