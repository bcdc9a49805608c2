import { performance } from 'node:perf_hooks';

/** How long this thread's event loop was busy while `work` ran, in milliseconds. */
export const eventLoopBusyDuring = async (work: () => unknown): Promise<number> => {
  const start = performance.eventLoopUtilization();
  await work();
  return performance.eventLoopUtilization(start).active;
};

/**
 * The least event-loop time of up to `tries` runs of `work`, stopping at the first one under `bound`.
 * Work done on the loop costs at least its yardstick on every run, so the least of several runs is
 * a sound proof that it was not; a single run also carries whatever else the machine did meanwhile.
 */
export const leastEventLoopBusy = async (work: () => Promise<void>, bound: number, tries = 3): Promise<number> => {
  let least = Number.POSITIVE_INFINITY;
  for (let i = 0; i < tries && least >= bound; i += 1) least = Math.min(least, await eventLoopBusyDuring(work));
  return least;
};
