import type { Logger } from '../platform/logger';
import type { Store } from '../store';
import { isDuplicateKey } from '../store/errors';
import { writeBehind } from './write-behind';

/** UTC day, `YYYY-MM-DD`. */
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

type UsageCounter = 'api_calls' | 'documents_sent' | 'documents_received';

export interface UsageCounters {
  /** Counts one call or document; written shortly after, without holding up the caller. */
  count(accountId: string, counter: UsageCounter, now?: Date): void;
  /** Resolves once everything counted so far is stored (tests, shutdown). */
  flush(): Promise<void>;
}

const dayId = (accountId: string, day: string) => `${accountId}:${day}`;

/**
 * A process's usage writer: counts are written behind the requests
 * (services/write-behind.ts), summed per account and day, so a busy process
 * writes each day counter a few times a second instead of once per request.
 * `$inc` is atomic on MongoDB and on the embedded FerretDB build, so several
 * processes can raise one counter.
 */
export function usageCounters(store: Store, logger: Logger): UsageCounters {
  type Count = { accountId: string; counter: UsageCounter; day: string };

  async function write(counts: Count[]): Promise<void> {
    const days = new Map<
      string,
      { account_id: string; day: string; api_calls: number; documents_sent: number; documents_received: number }
    >();
    for (const { accountId, counter, day } of counts) {
      const id = dayId(accountId, day);
      const entry = days.get(id) ?? {
        account_id: accountId,
        day,
        api_calls: 0,
        documents_sent: 0,
        documents_received: 0,
      };
      entry[counter] += 1;
      days.set(id, entry);
    }
    for (const [id, { account_id, day, api_calls, documents_sent, documents_received }] of days) {
      const increment = { $inc: { api_calls, documents_sent, documents_received } };
      try {
        await store.usageDays.updateOne(
          { _id: id },
          { ...increment, $setOnInsert: { account_id, day } },
          { upsert: true },
        );
      } catch (err) {
        // Another process created the day's counter at the same moment: it exists now.
        if (!isDuplicateKey(err)) throw err;
        await store.usageDays.updateOne({ _id: id }, increment);
      }
    }
  }

  const counts = writeBehind(write, (err, batch) =>
    logger.error({ err, counts: batch.length }, 'usage counters could not be written'),
  );
  return {
    count: (accountId, counter, now = new Date()) => counts.add({ accountId, counter, day: dayOf(now) }),
    flush: () => counts.flush(),
  };
}

export interface UsageReport {
  days: number;
  from: string;
  to: string;
  totals: { api_calls: number; documents_sent: number; documents_received: number };
  data: { date: string; api_calls: number; documents_sent: number; documents_received: number }[];
}

/** The last `days` UTC days, today included, every day present (zeros where nothing happened). */
export async function usageReport(
  store: Store,
  accountId: string,
  days: number,
  now = new Date(),
): Promise<UsageReport> {
  const dates = Array.from({ length: days }, (_, index) =>
    dayOf(new Date(now.getTime() - (days - 1 - index) * 86_400_000)),
  );
  const rows = await store.usageDays
    .find({ account_id: accountId, day: { $gte: dates[0], $lte: dates[dates.length - 1] } })
    .lean();
  const byDay = new Map(rows.map((row) => [row.day, row]));
  const data = dates.map((date) => ({
    date,
    api_calls: byDay.get(date)?.api_calls ?? 0,
    documents_sent: byDay.get(date)?.documents_sent ?? 0,
    documents_received: byDay.get(date)?.documents_received ?? 0,
  }));
  return {
    days,
    from: dates[0]!,
    to: dates[dates.length - 1]!,
    totals: {
      api_calls: data.reduce((sum, day) => sum + day.api_calls, 0),
      documents_sent: data.reduce((sum, day) => sum + day.documents_sent, 0),
      documents_received: data.reduce((sum, day) => sum + day.documents_received, 0),
    },
    data,
  };
}
