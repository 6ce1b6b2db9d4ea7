import type { RedisClient } from '../redis.js';
import type { PendingBatches } from './batch-mover.js';

/**
 * How a configuration's counts sit in Redis: `n` of `key` on the UTC `day`, under `field` within
 * that day ('' when the key has one plain number a day).
 */
export interface CountCodec<C> {
  write(count: C): readonly [key: string, day: string, field: string, n: number];
  read(key: string, day: string, field: string, n: number): C;
}

export interface PendingCountsOptions<C> {
  redis: RedisClient;
  /** REDIS_PREFIX. */
  prefix: string;
  /**
   * Names the counts' Redis keys, as a hash tag (`{<tag>}`): the scripts touch pending and batch
   * keys by name, so on a Redis Cluster they must all live in one slot.
   */
  tag: string;
  codec: CountCodec<C>;
  /** Lifetime of a key's pending counts, renewed by each add (counts a mover never took are dropped then); none when absent. */
  ttlSeconds?: number;
}

/** What Redis holds for one key: not yet in a batch, and per batch (applied to MySQL or not yet). */
export interface PendingOf<C> {
  pending: C[];
  batches: Map<string, C[]>;
}

/** How long a flush's id is remembered, so a flush retried after an unclear failure is applied once. */
const FLUSH_MARK_TTL_SECONDS = 3600;

/**
 * KEYS[1] flush mark; ARGV: mark ttl, key ttl (0: none), pending prefix, dirty set, then
 * (key, day field, n) triples. Applied whole or not at all, and once per flush id.
 */
const ADD_SCRIPT = `
if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) then return 0 end
local ttl = tonumber(ARGV[2])
for i = 5, #ARGV, 3 do
  local key = ARGV[3] .. ARGV[i]
  redis.call('HINCRBY', key, ARGV[i + 1], ARGV[i + 2])
  if ttl > 0 then redis.call('EXPIRE', key, ttl) end
  redis.call('SADD', ARGV[4], ARGV[i])
end
return 1`;

/**
 * KEYS[1] dirty set, KEYS[2] batch set, KEYS[3] the new batch's set of keys; ARGV: pending prefix,
 * the new batch's hash prefix, batch id, most keys. Renames the pending hashes of up to that many
 * keys into the batch in one step, so each count is in exactly one place at any time.
 */
const TAKE_SCRIPT = `
local keys = redis.call('SPOP', KEYS[1], ARGV[4])
if #keys == 0 then return 0 end
for _, key in ipairs(keys) do
  local pending = ARGV[1] .. key
  if redis.call('EXISTS', pending) == 1 then
    redis.call('RENAME', pending, ARGV[2] .. key)
    redis.call('SADD', KEYS[3], key)
  end
end
if redis.call('EXISTS', KEYS[3]) == 1 then redis.call('SADD', KEYS[2], ARGV[3]) end
return #keys`;

/** KEYS[1] a batch's set of keys; ARGV: its hash prefix. Each key, then its hash (flat). */
const BATCH_SCRIPT = `
local out = {}
for _, key in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  out[#out + 1] = key
  out[#out + 1] = redis.call('HGETALL', ARGV[1] .. key)
end
return out`;

/** KEYS[1] batch set, KEYS[2] the batch's set of keys; ARGV: its hash prefix, batch id. */
const FORGET_SCRIPT = `
for _, key in ipairs(redis.call('SMEMBERS', KEYS[2])) do redis.call('DEL', ARGV[1] .. key) end
redis.call('DEL', KEYS[2])
redis.call('SREM', KEYS[1], ARGV[2])
return 1`;

/**
 * KEYS[1] the key's pending hash, KEYS[2] batch set; ARGV: batch key prefix, key. What Redis holds
 * for one key at one instant: its pending hash (flat), then per batch its id and the key's hash there.
 */
const READ_SCRIPT = `
local out = { redis.call('HGETALL', KEYS[1]) }
for _, id in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  out[#out + 1] = id
  out[#out + 1] = redis.call('HGETALL', ARGV[1] .. id .. ':' .. ARGV[2])
end
return out`;

/**
 * The Redis step of counting on a hot path (count in process → flush to Redis → move to MySQL),
 * one layout for every configuration (all keys under the hash tag `{<tag>}`):
 * - `pending:<key>`, a hash of `<day>` (or `<day>\t<field>`) → n, and `dirty`, the keys that have one;
 * - while a mover carries them to MySQL, `moves` (the batch ids), `move:<id>` (the batch's keys) and
 *   `move:<id>:<key>` (a key's pending hash, renamed into the batch as it was).
 * Flushes are added once per flush id (`flush:<id>` marks), batches are taken whole; BatchMover
 * moves them (this is its PendingBatches).
 */
export class PendingCounts<C> implements PendingBatches<C[]> {
  private readonly redis: RedisClient;
  private readonly codec: CountCodec<C>;
  private readonly base: string;
  private readonly pendingPrefix: string;
  private readonly dirtyKey: string;
  private readonly movesKey: string;

  constructor(private readonly options: PendingCountsOptions<C>) {
    this.redis = options.redis;
    this.codec = options.codec;
    this.base = `${options.prefix}{${options.tag}}:`;
    this.pendingPrefix = `${this.base}pending:`;
    this.dirtyKey = `${this.base}dirty`;
    this.movesKey = `${this.base}moves`;
  }

  private batchKey(batchId: string): string {
    return `${this.base}move:${batchId}`;
  }

  /** Adds counts; a second call with the same `flushId` changes nothing. */
  async add(flushId: string, counts: readonly C[]): Promise<void> {
    if (counts.length === 0) return;
    const args = counts.flatMap((count) => {
      const [key, day, field, n] = this.codec.write(count);
      return [key, field === '' ? day : `${day}\t${field}`, String(n)];
    });
    await this.redis.eval(
      ADD_SCRIPT,
      1,
      `${this.base}flush:${flushId}`,
      FLUSH_MARK_TTL_SECONDS,
      this.options.ttlSeconds ?? 0,
      this.pendingPrefix,
      this.dirtyKey,
      ...args,
    );
  }

  /** Moves the pending counts of up to `maxKeys` keys into the batch `batchId`; false when none were pending. */
  async take(batchId: string, maxKeys: number): Promise<boolean> {
    const batch = this.batchKey(batchId);
    const taken = (await this.redis.eval(
      TAKE_SCRIPT,
      3,
      this.dirtyKey,
      this.movesKey,
      batch,
      this.pendingPrefix,
      `${batch}:`,
      batchId,
      maxKeys,
    )) as number;
    return taken > 0;
  }

  /** Batches taken and not yet forgotten (being moved, or left behind by a mover that stopped). */
  batches(): Promise<string[]> {
    return this.redis.smembers(this.movesKey);
  }

  async batch(batchId: string): Promise<C[]> {
    const batch = this.batchKey(batchId);
    const flat = (await this.redis.eval(BATCH_SCRIPT, 1, batch, `${batch}:`)) as Array<string | string[]>;
    const counts: C[] = [];
    for (let i = 0; i < flat.length; i += 2) this.readHash(flat[i] as string, flat[i + 1] as string[], counts);
    return counts;
  }

  /** After MySQL holds the batch (and readers have had time to see it there). */
  async forget(batchId: string): Promise<void> {
    const batch = this.batchKey(batchId);
    await this.redis.eval(FORGET_SCRIPT, 2, this.movesKey, batch, `${batch}:`, batchId);
  }

  /** What Redis holds for `key`, read in one step. */
  async pendingOf(key: string): Promise<PendingOf<C>> {
    const [pendingHash, ...rest] = (await this.redis.eval(
      READ_SCRIPT,
      2,
      this.pendingPrefix + key,
      this.movesKey,
      `${this.base}move:`,
      key,
    )) as [string[], ...Array<string | string[]>];
    const pending: C[] = [];
    this.readHash(key, pendingHash, pending);
    const batches = new Map<string, C[]>();
    for (let i = 0; i < rest.length; i += 2) {
      const counts: C[] = [];
      this.readHash(key, rest[i + 1] as string[], counts);
      if (counts.length > 0) batches.set(rest[i] as string, counts);
    }
    return { pending, batches };
  }

  /** Drops what is pending for `key` (its owner is gone, and the key may be given to another). */
  async discard(key: string): Promise<void> {
    await this.redis
      .multi()
      .del(this.pendingPrefix + key)
      .srem(this.dirtyKey, key)
      .exec();
  }

  /** A key's hash as HGETALL gives it (`<day>[\t<field>]`, n, …), appended to `into` as counts. */
  private readHash(key: string, flat: readonly string[], into: C[]): void {
    for (let i = 0; i < flat.length; i += 2) {
      const dayField = flat[i]!;
      const tab = dayField.indexOf('\t');
      const day = tab === -1 ? dayField : dayField.slice(0, tab);
      const field = tab === -1 ? '' : dayField.slice(tab + 1);
      into.push(this.codec.read(key, day, field, Number(flat[i + 1])));
    }
  }
}
