/**
 * Ceiling of `GET /check/:md5/:type` for a queued job: node:http and ONE Redis round trip
 * (HGETALL of the job's BullMQ hash), answered 200 with the service's "processing" body and poll
 * headers. The wait estimate is the configured default job time: working it out is what costs
 * the service its other reads.
 */
import { ceilingConfig, sendJson, serveCeiling } from '@pawlink/bench/ceiling';
import { ceilingRateLimit, type CeilingRateLimitConfig } from '@pawlink/bench/ceiling-rate-limit';
import type { ThumbnailProcessingResponse } from '@pawlink/contracts';
import { thumbnailJobId, type ThumbnailType } from '@pawlink/contracts';
import { Redis } from 'ioredis';

/** What bench/main.ts gives this ceiling. */
export interface CheckCeilingConfig {
  redisUrl: string;
  /** The queue's key prefix for job hashes (`queue.toKey('')`): `<prefix>{bull}:thumbs:`. */
  jobKeyPrefix: string;
  /** THUMBS_URL, for `checkURL`. */
  thumbsUrl: string;
  /** THUMBS_DEFAULT_JOB_MS. */
  defaultJobMs: number;
  /** Also counts each request in rate-limit windows (the contract's I/O for the endpoint), in the same write as the read. */
  rateLimit?: CeilingRateLimitConfig;
}

const PATH = /^\/check\/([0-9a-f]{32})\/(gif|png)$/;

const config = ceilingConfig<CheckCeilingConfig>();
const redis = new Redis(config.redisUrl, { enableAutoPipelining: true });
const countRequest = config.rateLimit ? ceilingRateLimit(redis, config.rateLimit) : undefined;
const NO_JOB: Record<string, string> = {};
const retryAfter = String(Math.max(1, Math.ceil(config.defaultJobMs / 1000)));

serveCeiling(async (req, res) => {
  const match = PATH.exec(req.url ?? '');
  const [job] = await Promise.all([match ? redis.hgetall(`${config.jobKeyPrefix}${thumbnailJobId(match[1]!, match[2] as ThumbnailType)}`) : NO_JOB, countRequest?.(req, res)]);
  if (!match || job.timestamp === undefined) {
    sendJson(res, 404, { success: false, error: 'No such job.', code: 1066 });
    return;
  }
  const [, md5, type] = match as unknown as [string, string, string];
  const progress = Number(job.progress ?? 0);
  const body: ThumbnailProcessingResponse = {
    success: true,
    status: 'processing',
    md5,
    checkURL: `${config.thumbsUrl}/check/${md5}/${type}`,
    checkAt: Date.now() + config.defaultJobMs,
    time: config.defaultJobMs,
    startedAt: Number(job.timestamp),
    progress: Number.isFinite(progress) ? progress : 0,
  };
  sendJson(res, 200, body, { 'Cache-Control': 'no-store', 'Retry-After': retryAfter });
}, () => redis.quit(), { expressRoute: '/check/:first/:second' });
