import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { RedisClient } from '@pawlink/service-kit/redis';
import type { ImageRow } from '../db/entities/image.entity.js';
import { IMAGE_PICK_TYPES, type ImagePickType } from '@pawlink/contracts';
import type { PickFilter } from '../domain/pick-options.rules.js';
import { pickTypesOf } from '../domain/image-type.policy.js';
import type { IdAndSize } from './image.repository.js';
import { decodeRecord, imagesKey, recordsKey } from './record-cache.repository.js';

/**
 * Floyd's algorithm in Lua, for a script that has `k` and `count` > k: k distinct ranks, a uniform
 * k-subset of 0..count-1, in exactly k draws with no retry loop (stepping to the next free rank on
 * a collision made neighbouring ranks come out together too often). Draw i uses the random number
 * `ARGV[<randomArg>]` from the caller, so the script stays deterministic; `onDraw` runs with the
 * rank in `r`.
 */
const floydDraws = (count: string, randomArg: string, onDraw: string): string => `    local taken = {}
    for i = 1, k do
      local j = ${count} - k + i - 1
      local r = math.floor(tonumber(ARGV[${randomArg}]) * (j + 1))
      if r > j then r = j end
      if taken[r] then r = j end
      taken[r] = true
${onDraw}
    end`;

/**
 * The end of both pick scripts: `{card, <count>}` followed by each picked id (`ids`) and its record
 * from the record cache (KEYS[2]) or '', read in the same round trip.
 */
const withRecords = (count: string): string => `local result = {card, ${count}}
if #ids == 0 then return result end
local records = redis.call('HMGET', KEYS[2], unpack(ids))
for i = 1, #ids do
  result[#result + 1] = ids[i]
  result[#result + 1] = records[i] or ''
end
return result`;

/**
 * Picks up to k distinct members among the n smallest-or-equal to the limit (or among all),
 * by rank: ZCOUNT/ZCARD and ZRANGE <rank> <rank> are O(log N), so the cost does not grow with
 * the category. The ranks are drawn by Floyd's algorithm (`floydDraws`). Returns {card, eligible,
 * id1, record1 or '', id2, …}.
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
${floydDraws(
  'n',
  '2 + i',
  `      local m = redis.call('ZRANGE', KEYS[1], r, r)
      if m[1] then ids[#ids + 1] = m[1] end`,
)}
  end
end
${withRecords('n')}
`;

const PICK_SHA = createHash('sha1').update(PICK_SCRIPT).digest('hex');

/**
 * PICK_SCRIPT with `type` and `exclude`: the draw is among the members of KEYS[3] (the category's
 * set, or its set of one type class) under the limit, minus the excluded ones. The excluded ids'
 * ranks are found with ZRANK (O(log n) each), Floyd's draw runs over the n - e remaining ranks,
 * and each draw is mapped past the excluded ranks below it (services/excluded-ranks.rules.ts
 * holds the same steps with specs). KEYS[1] is still the whole category (an empty one is a lost
 * index or an empty category). ARGV: limit, k, e, e ids, k randoms. Returns {card, remaining, id1,
 * record1 or '', …}.
 */
const FILTERED_PICK_SCRIPT = `
local card = redis.call('ZCARD', KEYS[1])
local n
if ARGV[1] == '' then n = redis.call('ZCARD', KEYS[3]) else n = redis.call('ZCOUNT', KEYS[3], '-inf', ARGV[1]) end
local k = tonumber(ARGV[2])
local e = tonumber(ARGV[3])
local excluded = {}
local seen = {}
for i = 1, e do
  local rank = redis.call('ZRANK', KEYS[3], ARGV[3 + i])
  if rank and rank < n and not seen[rank] then
    seen[rank] = true
    excluded[#excluded + 1] = rank
  end
end
table.sort(excluded)
local free = n - #excluded
local draws = {}
if free > 0 then
  if free <= k then
    for d = 0, free - 1 do draws[#draws + 1] = d end
  else
${floydDraws('free', '3 + e + i', '      draws[#draws + 1] = r')}
  end
end
local ids = {}
for _, d in ipairs(draws) do
  local r = d
  for _, skipped in ipairs(excluded) do
    if skipped > r then break end
    r = r + 1
  end
  local m = redis.call('ZRANGE', KEYS[3], r, r)
  if m[1] then ids[#ids + 1] = m[1] end
end
${withRecords('free')}
`;

const FILTERED_PICK_SHA = createHash('sha1').update(FILTERED_PICK_SCRIPT).digest('hex');

/*
 * KEYS[2] is the set of temporary keys that rebuilds of this category are filling right now: an
 * add or a removal goes to them too, so a rebuild that RENAMEs its key over the live one cannot
 * drop an image imported, or bring back one removed, while it ran. Each set (live or temporary)
 * has its type-class sets beside it under `<set>:type:<class>`.
 */

/**
 * ZADD only into an existing set (a missing set means a lost index, which must be rebuilt whole),
 * and into every rebuild in progress; the same into the sets of the image's type classes
 * (ARGV[3…]). Returns 1 when the live set had it added.
 */
const ADD_IF_INDEXED_SCRIPT = `
local function add(set)
  redis.call('ZADD', set, ARGV[1], ARGV[2])
  for i = 3, #ARGV do redis.call('ZADD', set .. ':type:' .. ARGV[i], ARGV[1], ARGV[2]) end
end
for _, temp in ipairs(redis.call('SMEMBERS', KEYS[2])) do add(temp) end
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
add(KEYS[1])
return 1
`;

/** ZREM from the set and from the sets of every type class (ARGV[2…]), live and being rebuilt. */
const REMOVE_SCRIPT = `
local function remove(set)
  local removed = redis.call('ZREM', set, ARGV[1])
  for i = 2, #ARGV do redis.call('ZREM', set .. ':type:' .. ARGV[i], ARGV[1]) end
  return removed
end
for _, temp in ipairs(redis.call('SMEMBERS', KEYS[2])) do remove(temp) end
return remove(KEYS[1])
`;

/**
 * Swaps a finished rebuild (KEYS[1], with its type-class sets) in for the live sets (KEYS[2]) at
 * once, or deletes them all when it found nothing; KEYS[3] stops listing it as in progress.
 * ARGV are the type classes. Returns the number of members.
 */
const SWAP_REBUILT_SCRIPT = `
redis.call('SREM', KEYS[3], KEYS[1])
local count = redis.call('ZCARD', KEYS[1])
if count > 0 then redis.call('RENAME', KEYS[1], KEYS[2]) else redis.call('DEL', KEYS[2]) end
for i = 1, #ARGV do
  local temp = KEYS[1] .. ':type:' .. ARGV[i]
  local live = KEYS[2] .. ':type:' .. ARGV[i]
  if count > 0 and redis.call('EXISTS', temp) == 1 then redis.call('RENAME', temp, live) else redis.call('DEL', temp, live) end
end
return count
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
 * score = size in bytes: the index random selection uses instead of scanning MySQL; beside it one
 * such set per type class (`…:bysize:<db>:type:<class>`) for `type=` picks.
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
  async addIfIndexed(db: string, id: string, size: number, types: readonly ImagePickType[] = []): Promise<boolean> {
    return (
      (await this.redis.eval(ADD_IF_INDEXED_SCRIPT, 2, this.key(db), this.rebuildingKey(db), size, id, ...types)) === 1
    );
  }

  async remove(db: string, id: string): Promise<void> {
    await this.redis.eval(REMOVE_SCRIPT, 2, this.key(db), this.rebuildingKey(db), id, ...IMAGE_PICK_TYPES);
  }

  /** The category's set of one type class. */
  typeKey(db: string, type: ImagePickType): string {
    return `${this.key(db)}:type:${type}`;
  }

  private rebuildingKey(db: string): string {
    return `${this.key(db)}:rebuilding`;
  }

  /** Members of the category's set (0 when the set is missing). */
  size(db: string): Promise<number> {
    return this.redis.zcard(this.key(db));
  }

  /**
   * Members of the category's `animated` and `still` sets together: every image is in exactly one,
   * so anything but `size(db)` means the type sets are missing or behind (an index built before them).
   */
  async typedSize(db: string): Promise<number> {
    const [animated, still] = await Promise.all([
      this.redis.zcard(this.typeKey(db, 'animated')),
      this.redis.zcard(this.typeKey(db, 'still')),
    ]);
    return animated + still;
  }

  /**
   * Up to `amount` distinct random ids, only among images of at most `sizeLimit` bytes when given,
   * and of the filter's type, never its excluded ids, when given.
   */
  async pick(db: string, amount: number, sizeLimit?: number, filter: PickFilter = {}): Promise<RandomPick> {
    const randoms = Array.from({ length: amount }, () => String(Math.random()));
    const limit = sizeLimit === undefined ? '' : String(Math.floor(sizeLimit));
    const exclude = filter.exclude ?? [];
    const raw =
      exclude.length === 0 && filter.type === undefined
        ? await this.run(PICK_SHA, PICK_SCRIPT, [this.key(db), this.records], [limit, String(amount), ...randoms])
        : await this.run(
            FILTERED_PICK_SHA,
            FILTERED_PICK_SCRIPT,
            [this.key(db), this.records, filter.type === undefined ? this.key(db) : this.typeKey(db, filter.type)],
            [limit, String(amount), String(exclude.length), ...exclude, ...randoms],
          );
    return this.toPick(raw);
  }

  private async run(sha: string, script: string, keys: string[], args: string[]): Promise<Array<number | string>> {
    try {
      return (await this.redis.evalsha(sha, keys.length, ...keys, ...args)) as Array<number | string>;
    } catch (error) {
      if (!String((error as Error).message).includes('NOSCRIPT')) throw error;
      return (await this.redis.eval(script, keys.length, ...keys, ...args)) as Array<number | string>;
    }
  }

  private toPick(raw: Array<number | string>): RandomPick {
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
   * Builds the set and its type-class sets (`services/image-type.policy.ts`) from `batches` under
   * temporary keys and swaps them in with RENAME, so readers never see a half-built index.
   * Returns the number of members.
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
        const all: Array<string | number> = [];
        const byType = new Map<ImagePickType, Array<string | number>>();
        for (const { id, size, ext, animated } of batch) {
          all.push(size, id);
          for (const type of pickTypesOf(ext, animated)) {
            const members = byType.get(type) ?? [];
            members.push(size, id);
            byType.set(type, members);
          }
        }
        const writes = this.redis.pipeline().zadd(temp, ...all);
        for (const [type, members] of byType) writes.zadd(`${temp}:type:${type}`, ...members);
        for (const [error] of (await writes.exec()) ?? []) if (error) throw error;
      }
      // Counted at the end, in the swap: imports during the rebuild added members too.
      return Number(await this.redis.eval(SWAP_REBUILT_SCRIPT, 3, temp, this.key(db), rebuilding, ...IMAGE_PICK_TYPES));
    } finally {
      await this.redis
        .multi()
        .srem(rebuilding, temp)
        .del(temp, ...IMAGE_PICK_TYPES.map((type) => `${temp}:type:${type}`))
        .exec();
    }
  }
}
