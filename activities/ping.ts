import type { ActivityDependencies } from './index';

interface PingRecord {
  _id: string;
  received_at: Date;
}

/**
 * Proves the worker → database path: records a token once (an upsert, so a
 * retried activity changes nothing) and answers when it was first seen.
 */
export function pingActivities({ db }: ActivityDependencies) {
  return {
    async recordPing(token: string): Promise<string> {
      const pings = db.collection<PingRecord>('pings');
      await pings.updateOne({ _id: token }, { $setOnInsert: { received_at: new Date() } }, { upsert: true });
      const record = await pings.findOne({ _id: token });
      return record!.received_at.toISOString();
    },
  };
}
