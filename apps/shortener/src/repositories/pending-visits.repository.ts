import type { Redis } from 'ioredis';

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
 * (`<day>|<code>` → n) in one step, so each visit is in exactly one place at any time.
 */
const TAKE_SCRIPT = `
local codes = redis.call('SPOP', KEYS[1], ARGV[3])
if #codes == 0 then return 0 end
for _, code in ipairs(codes) do
  local key = ARGV[1] .. code
  local days = redis.call('HGETALL', key)
  for i = 1, #days, 2 do redis.call('HSET', KEYS[3], days[i] .. '|' .. code, days[i + 1]) end
  redis.call('DEL', key)
end
if redis.call('EXISTS', KEYS[3]) == 1 then redis.call('SADD', KEYS[2], ARGV[2]) end
return #codes`;

/**
 * Counted visits on their way from the instances to MySQL, in Redis: per code a hash of UTC day →
 * visits (`shortener:visits:pending:<code>`) and the set of codes that have some; then, while a
 * mover carries them to MySQL, per batch a hash of `<day>|<code>` → visits and the set of batches.
 */
export class PendingVisitsRepository {
  private readonly pendingPrefix: string;
  private readonly dirtyKey: string;
  private readonly batchesKey: string;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    this.pendingPrefix = `${prefix}shortener:visits:pending:`;
    this.dirtyKey = `${prefix}shortener:visits:dirty`;
    this.batchesKey = `${prefix}shortener:visits:batches`;
  }

  private batchKey(batchId: string): string {
    return `${this.prefix}shortener:visits:batch:${batchId}`;
  }

  /** Adds counts; a second call with the same `flushId` changes nothing. */
  async add(flushId: string, counts: readonly VisitCount[]): Promise<void> {
    if (counts.length === 0) return;
    const args = counts.flatMap(({ day, code, visits }) => [day, code, String(visits)]);
    await this.redis.eval(ADD_SCRIPT, 1, `${this.prefix}shortener:visits:flush:${flushId}`, FLUSH_MARK_TTL_SECONDS, this.pendingPrefix, this.dirtyKey, ...args);
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
    return Object.entries(fields).map(([field, visits]) => {
      const [day, code] = field.split('|') as [string, string];
      return { day, code, visits: Number(visits) };
    });
  }

  /** After MySQL holds the batch. */
  async forget(batchId: string): Promise<void> {
    await this.redis.multi().del(this.batchKey(batchId)).srem(this.batchesKey, batchId).exec();
  }

  /** UTC day → visits of `code` not yet taken into a batch. */
  async pendingOf(code: string): Promise<Map<string, number>> {
    const fields = await this.redis.hgetall(this.pendingPrefix + code);
    return new Map(Object.entries(fields).map(([day, visits]) => [day, Number(visits)]));
  }

  /** A deleted entry's pending visits (another entry may get its code). */
  async discard(code: string): Promise<void> {
    await this.redis.multi().del(this.pendingPrefix + code).srem(this.dirtyKey, code).exec();
  }
}
