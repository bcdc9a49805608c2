import type { Store } from '../store';

/** UTC day, `YYYY-MM-DD`. */
export const dayOf = (date: Date) => date.toISOString().slice(0, 10);

export type UsageCounter = 'api_calls' | 'documents_sent';

/** One `$inc` upsert per event: several API processes count into the same day. */
export async function countUsage(store: Store, accountId: string, counter: UsageCounter, now = new Date()): Promise<void> {
  const day = dayOf(now);
  await store.usageDays.updateOne(
    { _id: `${accountId}:${day}` },
    { $inc: { [counter]: 1 }, $setOnInsert: { account_id: accountId, day } },
    { upsert: true },
  );
}

export interface UsageReport {
  days: number;
  from: string;
  to: string;
  totals: { api_calls: number; documents_sent: number };
  data: { date: string; api_calls: number; documents_sent: number }[];
}

/** The last `days` UTC days, today included, every day present (zeros where nothing happened). */
export async function usageReport(store: Store, accountId: string, days: number, now = new Date()): Promise<UsageReport> {
  const dates = Array.from({ length: days }, (_, index) => dayOf(new Date(now.getTime() - (days - 1 - index) * 86_400_000)));
  const rows = await store.usageDays.find({ account_id: accountId, day: { $gte: dates[0], $lte: dates[dates.length - 1] } }).lean();
  const byDay = new Map(rows.map((row) => [row.day, row]));
  const data = dates.map((date) => ({
    date,
    api_calls: byDay.get(date)?.api_calls ?? 0,
    documents_sent: byDay.get(date)?.documents_sent ?? 0,
  }));
  return {
    days,
    from: dates[0]!,
    to: dates[dates.length - 1]!,
    totals: {
      api_calls: data.reduce((sum, day) => sum + day.api_calls, 0),
      documents_sent: data.reduce((sum, day) => sum + day.documents_sent, 0),
    },
    data,
  };
}
