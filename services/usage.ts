import { randomBase62 } from '../domain/ids';
import type { Store } from '../store';
import { serialPerKey } from './serial';

/** UTC day, `YYYY-MM-DD`. */
export const dayOf = (date: Date) => date.toISOString().slice(0, 10);

export type UsageCounter = 'api_calls' | 'documents_sent';

export interface UsageCounters {
  /** Resolves once the increment is stored. */
  count(accountId: string, counter: UsageCounter, now?: Date): Promise<void>;
}

/**
 * A process's usage writer. It owns its counter documents (a random writer
 * id) and chains the increments of each document, so no document ever sees
 * two concurrent updates; several processes never share a document.
 */
export function usageCounters(store: Store): UsageCounters {
  const writer = randomBase62(12);
  const serial = serialPerKey();
  return {
    async count(accountId, counter, now = new Date()) {
      const day = dayOf(now);
      const id = `${accountId}:${day}:${writer}`;
      await serial(id, () =>
        store.usageDays.updateOne({ _id: id }, { $inc: { [counter]: 1 }, $setOnInsert: { account_id: accountId, day, writer } }, { upsert: true }),
      );
    },
  };
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
  const data = dates.map((date) => {
    const ofDay = rows.filter((row) => row.day === date);
    return {
      date,
      api_calls: ofDay.reduce((sum, row) => sum + row.api_calls, 0),
      documents_sent: ofDay.reduce((sum, row) => sum + row.documents_sent, 0),
    };
  });
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
