import { DayTally, ReusableCounts, type LogSink } from '@pawlink/service-kit';
import type { UsageCount } from '../domain/usage-count.rules.js';
import type { PendingUsageRepository } from './pending-usage.repository.js';

export interface UsageTallyOptions {
  pending: Pick<PendingUsageRepository, 'add'>;
  /** How often the tally goes to Redis. */
  flushMs: number;
  logger: LogSink;
  now?: () => number;
}

/**
 * Requests counted in memory per key, UTC day and field (service-kit's DayTally, as the
 * shortener's visits), sent to Redis every `flushMs`: a failed chunk is retried and added once; at
 * most `flushMs` of requests are lost when the process dies without SIGTERM. `add` is two Map
 * lookups and an update (the key's hot path; fields are the same string objects request after
 * request, so nothing is built or hashed anew; a key's counts are kept from flush to flush and
 * zeroed in place, so a busy key allocates nothing for its tally either).
 */
export class UsageTallyRepository extends DayTally<number, ReusableCounts<string>, UsageCount> {
  constructor({ pending, flushMs, logger, now }: UsageTallyOptions) {
    super({
      empty: () => new ReusableCounts(),
      collect: (day, keyId, fields, into) => {
        fields.forEach((field, count) => into.push({ keyId, day, field, count }));
      },
      reset: (fields) => fields.reset(),
      keyOf: (count) => count.keyId,
      send: (chunkId, counts) => pending.add(chunkId, counts),
      flushMs,
      logger,
      what: 'key usage',
      ...(now ? { now } : {}),
    });
  }

  /** One request of `keyId` to the route `field` names. */
  add(keyId: number, field: string): void {
    this.at(keyId).add(field);
  }
}
