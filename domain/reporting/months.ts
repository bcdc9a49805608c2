/**
 * Reporting months (`YYYY-MM`, UTC), in a module of their own with no
 * imports: the monthly reporting workflow uses them, and workflow code may
 * not reach Node's modules.
 */

/** A reporting month (`2026-10`) as its first and last day. */
export function monthPeriod(month: string): { start: string; end: string; from: Date; until: Date } {
  const match = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
  if (!match) throw new Error(`a reporting month is written YYYY-MM, not ${JSON.stringify(month)}`);
  const [year, monthNumber] = [Number(match[1]), Number(match[2])];
  const from = new Date(Date.UTC(year, monthNumber - 1, 1));
  const until = new Date(Date.UTC(year, monthNumber, 1));
  const last = new Date(until.getTime() - 86_400_000);
  return { start: from.toISOString().slice(0, 10), end: last.toISOString().slice(0, 10), from, until };
}

/** The month before the one `now` falls in (UTC), the one a report is due for. */
export function previousMonth(now: Date): string {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return first.toISOString().slice(0, 7);
}
