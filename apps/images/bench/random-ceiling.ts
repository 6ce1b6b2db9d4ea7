/**
 * Ceiling of `GET /<category>` (JSON): node:http and ONE Redis round trip, a script taking a
 * random member of the category's size index and its record from the record cache, answered with
 * a body of the same shape as the service's (`{success, images: [record], notes}`).
 */
import { ceilingConfig, sendJson, serveCeiling } from '@pawlink/bench/ceiling';
import { ceilingRateLimit } from '@pawlink/bench/ceiling-rate-limit';
import { Redis } from 'ioredis';
import { toImageRecord } from '../src/domain/image-record.rules.js';
import { NOTES } from '../src/domain/notes.policy.js';
import { decodeCachedRecord, type RecordCeilingConfig } from './cached-record.js';

/** What bench/main.ts gives this ceiling. */
export interface RandomCeilingConfig extends RecordCeilingConfig {
  /** Category db key → its size index key. */
  indexKeys: Record<string, string>;
}

const PICK = `
local id = redis.call('ZRANDMEMBER', KEYS[1])
if not id then return false end
return {id, redis.call('HGET', KEYS[2], id)}
`;

const config = ceilingConfig<RandomCeilingConfig>();
const redis = new Redis(config.redisUrl, { enableAutoPipelining: true });
redis.defineCommand('pick', { numberOfKeys: 2, lua: PICK });
const pick = (indexKey: string): Promise<[string, string | null] | null> =>
  (redis as unknown as { pick(a: string, b: string): Promise<[string, string | null] | null> }).pick(
    indexKey,
    config.recordsKey,
  );
const headers = { 'Cache-Control': 'no-store', Vary: 'Accept' };
const countRequest = config.rateLimit ? ceilingRateLimit(redis, config.rateLimit) : undefined;

serveCeiling(
  async (req, res) => {
    const indexKey = config.indexKeys[(req.url ?? '').slice(1)];
    const [picked] = await Promise.all([indexKey === undefined ? null : pick(indexKey), countRequest?.(req, res)]);
    if (!picked || picked[1] === null) {
      sendJson(res, 404, { success: false, error: 'Category not found.', code: 1030 });
      return;
    }
    const image = toImageRecord(decodeCachedRecord(picked[0], picked[1]), config.imagesMediaUrl);
    sendJson(res, 200, { success: true, images: [image], notes: NOTES }, headers);
  },
  () => redis.quit(),
  { expressRoute: '/:category' },
);
