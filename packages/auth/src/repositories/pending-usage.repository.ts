import type { RedisClient } from '@pawlink/service-kit/redis';
import type { UsageCount } from '../services/usage-count.js';

/** How long a flush's id is remembered, so a flush retried after an unclear failure is applied once. */
const FLUSH_MARK_TTL_SECONDS = 3600;
/** A key's day hash outlives any mover outage worth waiting for; past it the counts are dropped. */
export const USAGE_DAY_TTL_SECONDS = 35 * 86_400;

/**
 * KEYS[1] flush mark; ARGV: mark ttl, day ttl, key prefix, dirty set, then (keyId, day, field, n)
 * quadruples. Applied whole or not at all, and once per flush id.
 */
const ADD_SCRIPT = `
if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) then return 0 end
for i = 5, #ARGV, 4 do
  local key = ARGV[3] .. '{usage}:' .. ARGV[i] .. ':' .. ARGV[i + 1]
  redis.call('HINCRBY', key, ARGV[i + 2], ARGV[i + 3])
  redis.call('EXPIRE', key, ARGV[2])
  redis.call('SADD', ARGV[4], ARGV[i] .. ':' .. ARGV[i + 1])
end
return 1`;

/**
 * KEYS[1] dirty set, KEYS[2] batch set, KEYS[3] the new batch's hash; ARGV: key prefix, batch id,
 * most key-days. Moves up to that many key-days into the batch (keyId → lines `day\\tfield\\tn`)
 * in one step, so each count is in exactly one place at any time.
 */
const TAKE_SCRIPT = `
local members = redis.call('SPOP', KEYS[1], ARGV[3])
if #members == 0 then return 0 end
local byKey = {}
for _, member in ipairs(members) do
  local keyId, day = string.match(member, '^(%d+):(.+)$')
  if keyId then
    local key = ARGV[1] .. '{usage}:' .. keyId .. ':' .. day
    local fields = redis.call('HGETALL', key)
    local lines = byKey[keyId] or {}
    for i = 1, #fields, 2 do lines[#lines + 1] = day .. '\\t' .. fields[i] .. '\\t' .. fields[i + 1] end
    byKey[keyId] = lines
    redis.call('DEL', key)
  end
end
for keyId, lines in pairs(byKey) do
  if #lines > 0 then redis.call('HSET', KEYS[3], keyId, table.concat(lines, '\\n')) end
end
if redis.call('EXISTS', KEYS[3]) == 1 then redis.call('SADD', KEYS[2], ARGV[2]) end
return #members`;

/**
 * KEYS[1] batch set; ARGV: key prefix, batch key prefix, keyId, then days. What Redis holds for one
 * key at one instant: per day its fields, then per batch its id and lines (or false).
 */
const READ_SCRIPT = `
local pending = {}
for i = 4, #ARGV do
  local fields = redis.call('HGETALL', ARGV[1] .. '{usage}:' .. ARGV[3] .. ':' .. ARGV[i])
  for j = 1, #fields, 2 do
    pending[#pending + 1] = ARGV[i]
    pending[#pending + 1] = fields[j]
    pending[#pending + 1] = fields[j + 1]
  end
end
local out = { pending }
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  out[#out + 1] = id
  out[#out + 1] = redis.call('HGET', ARGV[2] .. id, ARGV[3])
end
return out`;

const parseLines = (keyId: number, value: string): UsageCount[] =>
  value
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [day, field, count] = line.split('\t') as [string, string, string];
      return { keyId, day, field, count: Number(count) };
    });

/** What Redis holds for one key: not yet in a batch, and per batch (applied to MySQL or not yet). */
export interface PendingUsageOfKey {
  pending: UsageCount[];
  batches: Map<string, UsageCount[]>;
}

/**
 * Key usage on its way from the instances to MySQL, in Redis: per key and UTC day a hash of
 * `<service> <route>` → requests (`{usage}:<keyId>:<day>`; every usage key shares the tag {usage}: the scripts name keys of several API keys, which a Redis Cluster allows only within one slot) and the set of
 * key-days that have some; then, while a mover carries them to MySQL, per batch a hash of
 * keyId → counts and the set of batches.
 */
export class PendingUsageRepository {
  private readonly dirtyKey: string;
  private readonly batchesKey: string;
  private readonly batchPrefix: string;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {
    this.dirtyKey = `${prefix}{usage}:dirty`;
    this.batchesKey = `${prefix}{usage}:batches`;
    this.batchPrefix = `${prefix}{usage}:batch:`;
  }

  /** Adds counts; a second call with the same `flushId` changes nothing. */
  async add(flushId: string, counts: readonly UsageCount[]): Promise<void> {
    if (counts.length === 0) return;
    const args = counts.flatMap(({ keyId, day, field, count }) => [String(keyId), day, field, String(count)]);
    await this.redis.eval(ADD_SCRIPT, 1, `${this.prefix}{usage}:flush:${flushId}`, FLUSH_MARK_TTL_SECONDS, USAGE_DAY_TTL_SECONDS, this.prefix, this.dirtyKey, ...args);
  }

  /** Moves the counts of up to `maxKeyDays` key-days into the batch `batchId`; false when none were pending. */
  async take(batchId: string, maxKeyDays: number): Promise<boolean> {
    const taken = (await this.redis.eval(TAKE_SCRIPT, 3, this.dirtyKey, this.batchesKey, this.batchPrefix + batchId, this.prefix, batchId, maxKeyDays)) as number;
    return taken > 0;
  }

  /** Batches taken and not yet forgotten (being moved, or left behind by a mover that stopped). */
  batches(): Promise<string[]> {
    return this.redis.smembers(this.batchesKey);
  }

  async batch(batchId: string): Promise<UsageCount[]> {
    const fields = await this.redis.hgetall(this.batchPrefix + batchId);
    return Object.entries(fields).flatMap(([keyId, lines]) => parseLines(Number(keyId), lines));
  }

  /** After MySQL holds the batch (and readers have had time to see it there). */
  async forget(batchId: string): Promise<void> {
    await this.redis.multi().del(this.batchPrefix + batchId).srem(this.batchesKey, batchId).exec();
  }

  /** What Redis holds for `keyId` on `days`, read in one step. */
  async pendingOf(keyId: number, days: readonly string[]): Promise<PendingUsageOfKey> {
    const [flat, ...rest] = (await this.redis.eval(READ_SCRIPT, 1, this.batchesKey, this.prefix, this.batchPrefix, String(keyId), ...days)) as [string[], ...Array<string | null>];
    const pending: UsageCount[] = [];
    for (let i = 0; i < flat.length; i += 3) pending.push({ keyId, day: flat[i]!, field: flat[i + 1]!, count: Number(flat[i + 2]) });
    const batches = new Map<string, UsageCount[]>();
    for (let i = 0; i < rest.length; i += 2) {
      const lines = rest[i + 1];
      if (typeof lines === 'string') batches.set(rest[i]!, parseLines(keyId, lines));
    }
    return { pending, batches };
  }
}
