/**
 * Ceiling of `GET /images/:id.json`: node:http and ONE Redis round trip (HGET of the record from
 * the record cache), answered with a body of the same shape as the service's (`{success, data}`).
 */
import { ceilingConfig, sendJson, serveCeiling } from '@pawlink/bench/ceiling';
import { ceilingRateLimit } from '@pawlink/bench/ceiling-rate-limit';
import { Redis } from 'ioredis';
import { toImageWithCategory } from '../src/domain/image-record.rules.js';
import { decodeCachedRecord, type RecordCeilingConfig } from './cached-record.js';

const PATH = /^\/images\/([0-9a-f]{32})\.json$/;

const config = ceilingConfig<RecordCeilingConfig>();
const redis = new Redis(config.redisUrl, { enableAutoPipelining: true });
const countRequest = config.rateLimit ? ceilingRateLimit(redis, config.rateLimit) : undefined;

serveCeiling(
  async (req, res) => {
    const id = PATH.exec(req.url ?? '')?.[1];
    const [value] = await Promise.all([
      id === undefined ? null : redis.hget(config.recordsKey, id),
      countRequest?.(req, res),
    ]);
    if (id === undefined || value === null) {
      sendJson(res, 404, { success: false, error: 'Image not found.', code: 1040 });
      return;
    }
    sendJson(res, 200, {
      success: true,
      data: toImageWithCategory(decodeCachedRecord(id, value), config.imagesMediaUrl),
    });
  },
  () => redis.quit(),
  { expressRoute: '/images/:id.json' },
);
