/**
 * Rate-limit windows are fixed and aligned to the minute (services/rate-limits.ts). A test that counts within
 * one waits for this first, so its burst starts early in a window and cannot straddle two.
 */
export async function earlyInAWindow(): Promise<void> {
  const intoWindow = Date.now() % 60_000;
  if (intoWindow > 45_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoWindow + 100));
}
