import type { RedisClient } from '@pawlink/service-kit/redis';

/** Visits of one code on one UTC day. */
export interface VisitCount {
  day: string;
  code: string;
  visits: number;
}

/** How long a flush's id is remembered, so a flush retried after an unclear failure is applied once. */
const FLUSH_MARK_TTL_SECONDS = 3600;

/**
 * KEYS[1] flush mark; ARGV: mark ttl, pending key prefix, dirty set key, then (day, code, n) triples.
 * Applied whole or not at all, and once per flush id.
 */
const ADD_SCRIPT = `
if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) then return 0 end
for i = 4, #ARGV, 3 do
  redis.call('HINCRBY', ARGV[2] .. ARGV[i + 1], ARGV[i], ARGV[i + 2])
  redis.call('SADD', ARGV[3], ARGV[i + 1])
end
return 1`;

/**
 * KEYS[1] dirty set, KEYS[2] batch set, KEYS[3] the new batch's hash; ARGV: pending key prefix,
 * batch id, most codes. Moves the pending days of up to that many codes into the batch
 * (code → `day=n;day=n`) in one step, so each visit is in exactly one place at any time.
 */
const TAKE_SCRIPT = `
local codes = redis.call('SPOP', KEYS[1], ARGV[3])
if #codes == 0 then return 0 end
for _, code in ipairs(codes) do
  local key = ARGV[1] .. code
  local days = redis.call('HGETALL', key)
  local parts = {}
  for i = 1, #days, 2 do parts[#parts + 1] = days[i] .. '=' .. days[i + 1] end
  if #parts > 0 then redis.call('HSET', KEYS[3], code, table.concat(parts, ';')) end
  redis.call('DEL', key)
end
if redis.call('EXISTS', KEYS[3]) == 1 then redis.call('SADD', KEYS[2], ARGV[2]) end
return #codes`;

/**
 * KEYS[1] the code's pending hash, KEYS[2] batch set; ARGV: batch key prefix, code. What Redis holds
 * for one code at one instant: its pending days, then per batch its id and days (or false).
 */
const READ_SCRIPT = `
local out = { redis.call('HGETALL', KEYS[1]) }
for _, id in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  out[#out + 1] = id
  out[#out + 1] = redis.call('HGET', ARGV[1] .. id, ARGV[2])
end
return out`;

/** UTC day → visits. */
export type DayCounts = Map<string, number>;

/** What Redis holds for one code: not yet in a batch, and per batch (applied to MySQL or not yet). */
export interface PendingOfCode {
  pending: DayCounts;
  batches: Map<string, DayCounts>;
}

const parseDays = (value: string): DayCounts =>
  new Map(
    value
      .split(';')
      .filter((part) => part !== '')
      .map((part) => {
        const [day, visits] = part.split('=') as [string, string];
        return [day, Number(visits)];
      }),
  );

/**
 * Counted visits on their way from the instances to MySQL, in Redis: per code a hash of UTC day →
 * visits (`{shortener:visits}:pending:<code>`) and the set of codes that have some; then, while a
 * mover carries them to MySQL, per batch a hash of `<day>|<code>` → visits and the set of batches.
 */
// Every key shares the hash tag {shortener:visits}: the scripts touch a code's pending hash and the
// batch hashes by name, so on a Redis Cluster they must all live in one slot.
export class PendingVisitsRepository {
  private readonly pendingPrefix: string;
  private readonly dirtyKey: string;
  private readonly batchesKey: string;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {
    this.pendingPrefix = `${prefix}{shortener:visits}:pending:`;
    this.dirtyKey = `${prefix}{shortener:visits}:dirty`;
    this.batchesKey = `${prefix}{shortener:visits}:batches`;
  }

  private batchKey(batchId: string): string {
    return `${this.prefix}{shortener:visits}:batch:${batchId}`;
  }

  /** Adds counts; a second call with the same `flushId` changes nothing. */
  async add(flushId: string, counts: readonly VisitCount[]): Promise<void> {
    if (counts.length === 0) return;
    const args = counts.flatMap(({ day, code, visits }) => [day, code, String(visits)]);
    await this.redis.eval(ADD_SCRIPT, 1, `${this.prefix}{shortener:visits}:flush:${flushId}`, FLUSH_MARK_TTL_SECONDS, this.pendingPrefix, this.dirtyKey, ...args);
  }

  /** Moves the pending visits of up to `maxCodes` codes into the batch `batchId`; false when none were pending. */
  async take(batchId: string, maxCodes: number): Promise<boolean> {
    const taken = (await this.redis.eval(TAKE_SCRIPT, 3, this.dirtyKey, this.batchesKey, this.batchKey(batchId), this.pendingPrefix, batchId, maxCodes)) as number;
    return taken > 0;
  }

  /** Batches taken and not yet forgotten (being moved, or left behind by a mover that stopped). */
  batches(): Promise<string[]> {
    return this.redis.smembers(this.batchesKey);
  }

  async batch(batchId: string): Promise<VisitCount[]> {
    const fields = await this.redis.hgetall(this.batchKey(batchId));
    return Object.entries(fields).flatMap(([code, days]) => [...parseDays(days)].map(([day, visits]) => ({ day, code, visits })));
  }

  /** After MySQL holds the batch (and readers have had time to see it there). */
  async forget(batchId: string): Promise<void> {
    await this.redis.multi().del(this.batchKey(batchId)).srem(this.batchesKey, batchId).exec();
  }

  /** What Redis holds for `code`, read in one step. */
  async pendingOf(code: string): Promise<PendingOfCode> {
    const [pendingFields, ...rest] = (await this.redis.eval(READ_SCRIPT, 2, this.pendingPrefix + code, this.batchesKey, `${this.prefix}{shortener:visits}:batch:`, code)) as [string[], ...Array<string | null>];
    const pending: DayCounts = new Map();
    for (let i = 0; i < pendingFields.length; i += 2) pending.set(pendingFields[i]!, Number(pendingFields[i + 1]));
    const batches = new Map<string, DayCounts>();
    for (let i = 0; i < rest.length; i += 2) {
      const days = rest[i + 1];
      if (typeof days === 'string') batches.set(rest[i]!, parseDays(days));
    }
    return { pending, batches };
  }

  /** A deleted entry's pending visits (another entry may get its code). */
  async discard(code: string): Promise<void> {
    await this.redis.multi().del(this.pendingPrefix + code).srem(this.dirtyKey, code).exec();
  }
}
