import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { RedisClient } from '@pawlink/service-kit/redis';
import type { ImageRow } from '../db/entities/image.entity.js';
import type { IdAndSize } from './image.repository.js';
import { decodeRecord, imagesKey, recordsKey } from './record-cache.repository.js';

/**
 * Picks up to k distinct members among the n smallest-or-equal to the limit (or among all),
 * by rank: ZCOUNT/ZCARD and ZRANGE <rank> <rank> are O(log N), so the cost does not grow with
 * the category. The ranks are a uniform k-subset of 0..n-1 by Floyd's algorithm: exactly k
 * draws, no retry loop, and every subset equally likely (stepping to the next free rank on a
 * collision made neighbouring ranks come out together too often). Random numbers come from the
 * caller so the script stays deterministic. The picked ids' records come from the record cache
 * (KEYS[2]) in the same round trip. Returns {card, eligible, id1, record1 or '', id2, …}.
 */
const PICK_SCRIPT = `
local card = redis.call('ZCARD', KEYS[1])
local n = card
if ARGV[1] ~= '' then n = redis.call('ZCOUNT', KEYS[1], '-inf', ARGV[1]) end
local ids = {}
if n > 0 then
  local k = tonumber(ARGV[2])
  if n <= k then
    ids = redis.call('ZRANGE', KEYS[1], 0, n - 1)
  else
    local taken = {}
    for i = 1, k do
      local j = n - k + i - 1
      local r = math.floor(tonumber(ARGV[2 + i]) * (j + 1))
      if r > j then r = j end
      if taken[r] then r = j end
      taken[r] = true
      local m = redis.call('ZRANGE', KEYS[1], r, r)
      if m[1] then ids[#ids + 1] = m[1] end
    end
  end
end
local result = {card, n}
if #ids == 0 then return result end
local records = redis.call('HMGET', KEYS[2], unpack(ids))
for i = 1, #ids do
  result[#result + 1] = ids[i]
  result[#result + 1] = records[i] or ''
end
return result
`;

const PICK_SHA = createHash('sha1').update(PICK_SCRIPT).digest('hex');

/*
 * KEYS[2] is the set of temporary keys that rebuilds of this category are filling right now: an
 * add or a removal goes to them too, so a rebuild that RENAMEs its key over the live one cannot
 * drop an image imported, or bring back one removed, while it ran.
 */

/**
 * ZADD only into an existing set (a missing set means a lost index, which must be rebuilt whole),
 * and into every rebuild in progress. Returns 1 when the live set had it added.
 */
const ADD_IF_INDEXED_SCRIPT = `
for _, temp in ipairs(redis.call('SMEMBERS', KEYS[2])) do redis.call('ZADD', temp, ARGV[1], ARGV[2]) end
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
return 1
`;

const REMOVE_SCRIPT = `
for _, temp in ipairs(redis.call('SMEMBERS', KEYS[2])) do redis.call('ZREM', temp, ARGV[1]) end
return redis.call('ZREM', KEYS[1], ARGV[1])
`;

/** A rebuild that died without cleaning up stops receiving writes after this. */
const REBUILDING_TTL_SECONDS = 3600;

export interface RandomPick {
  /** Images in the category's index. */
  total: number;
  /** Images at or under the size limit (the total without one). */
  eligible: number;
  /** Distinct ids, in random order. */
  ids: string[];
  /** The record cache's rows of those ids, read in the same script; an id without one is not cached. */
  rows: Map<string, ImageRow>;
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/**
 * Per category, a Redis sorted set `<prefix>{images}:bysize:<db>` with member = image id and
 * score = size in bytes: the index random selection uses instead of scanning MySQL.
 */
export class SizeIndexRepository {
  private readonly records: string;

  constructor(
    private readonly redis: RedisClient,
    private readonly redisPrefix: string,
  ) {
    this.records = recordsKey(redisPrefix);
  }

  key(db: string): string {
    return imagesKey(this.redisPrefix, `bysize:${db}`);
  }

  /**
   * Adds the member only when the category's set exists; false when it does not. A plain ZADD
   * on a lost index would create a set holding just this image, which nothing would ever rebuild
   * (the set exists, so it looks healthy) and the category's other images would never be picked.
   */
  async addIfIndexed(db: string, id: string, size: number): Promise<boolean> {
    return (await this.redis.eval(ADD_IF_INDEXED_SCRIPT, 2, this.key(db), this.rebuildingKey(db), size, id)) === 1;
  }

  async remove(db: string, id: string): Promise<void> {
    await this.redis.eval(REMOVE_SCRIPT, 2, this.key(db), this.rebuildingKey(db), id);
  }

  private rebuildingKey(db: string): string {
    return `${this.key(db)}:rebuilding`;
  }

  /** Members of the category's set (0 when the set is missing). */
  size(db: string): Promise<number> {
    return this.redis.zcard(this.key(db));
  }

  /** Up to `amount` distinct random ids, only among images of at most `sizeLimit` bytes when given. */
  async pick(db: string, amount: number, sizeLimit?: number): Promise<RandomPick> {
    const randoms = Array.from({ length: amount }, () => String(Math.random()));
    const limit = sizeLimit === undefined ? '' : String(Math.floor(sizeLimit));
    const args = [this.key(db), this.records, limit, String(amount), ...randoms];
    let raw: Array<number | string>;
    try {
      raw = (await this.redis.evalsha(PICK_SHA, 2, ...args)) as Array<number | string>;
    } catch (error) {
      if (!String((error as Error).message).includes('NOSCRIPT')) throw error;
      raw = (await this.redis.eval(PICK_SCRIPT, 2, ...args)) as Array<number | string>;
    }
    const [total, eligible, ...pairs] = raw;
    const ids: string[] = [];
    const rows = new Map<string, ImageRow>();
    for (let i = 0; i < pairs.length; i += 2) {
      const id = String(pairs[i]);
      const record = String(pairs[i + 1]);
      ids.push(id);
      if (record !== '') rows.set(id, decodeRecord(id, record));
    }
    return { total: Number(total), eligible: Number(eligible), ids: shuffle(ids), rows };
  }

  /**
   * Builds the set from `batches` under a temporary key and swaps it in with RENAME, so readers
   * never see a half-built index. Returns the number of members.
   */
  async rebuild(db: string, batches: AsyncIterable<IdAndSize[]>): Promise<number> {
    const temp = `${this.key(db)}:rebuild:${randomBytes(6).toString('hex')}`;
    const rebuilding = this.rebuildingKey(db);
    // Registered before the first MySQL read: a row inserted earlier is read by the rebuild, one
    // inserted later is added to `temp` by its import.
    await this.redis.multi().sadd(rebuilding, temp).expire(rebuilding, REBUILDING_TTL_SECONDS).exec();
    try {
      for await (const batch of batches) {
        if (batch.length === 0) continue;
        const args: Array<string | number> = [];
        for (const { id, size } of batch) args.push(size, id);
        await this.redis.zadd(temp, ...args);
      }
      // Counted at the end: imports during the rebuild added members too.
      const count = await this.redis.zcard(temp);
      if (count > 0) await this.redis.multi().srem(rebuilding, temp).rename(temp, this.key(db)).exec();
      else await this.redis.del(this.key(db));
      return count;
    } finally {
      await this.redis.multi().srem(rebuilding, temp).del(temp).exec();
    }
  }
}
