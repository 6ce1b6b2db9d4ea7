/**
 * Ceiling of `GET /check/:md5/:type` for a queued job: node:http and ONE Redis round trip
 * (HGETALL of the job's BullMQ hash), answered 200 with the service's "processing" body and poll
 * headers. The wait estimate is the configured default job time: working it out is what costs
 * the service its other reads.
 *
 * As a contract-I/O ceiling (`contractRead`) it also does the rest of what the contract's answer
 * rests on (docs/api.md: "done" when the file exists; `time` estimated from the queue ahead): a
 * stat of the file, and the job read with the queue's lengths by the service's own script
 * instead of the HGETALL; its place in the queue from the wait list, read every 250 ms as the
 * service's snapshot is (docs/api.md says `time` may be that old).
 */
import { ceilingConfig, sendJson, serveCeiling } from '@pawlink/bench/ceiling';
import { ceilingRateLimit, type CeilingRateLimitConfig } from '@pawlink/bench/ceiling-rate-limit';
import type { ThumbnailProcessingResponse } from '@pawlink/contracts';
import { thumbnailFileName, thumbnailJobId, type ThumbnailType } from '@pawlink/contracts';
import { Redis } from 'ioredis';
import { statSync } from 'node:fs';
import path from 'node:path';
import { jobReader, READ_JOB_KEYS } from '../src/repositories/read-job-script.repository.js';

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
  /** Also stats the thumbnail under this directory and reads the job as the service does (state, lengths, the wait list every 250 ms). */
  contractRead?: { thumbsDir: string };
}

const PATH = /^\/check\/([0-9a-f]{32})\/(gif|png)$/;

const config = ceilingConfig<CheckCeilingConfig>();
const redis = new Redis(config.redisUrl, { enableAutoPipelining: true });
const countRequest = config.rateLimit ? ceilingRateLimit(redis, config.rateLimit) : undefined;
const NO_JOB: Record<string, string> = {};
const queueKeys = READ_JOB_KEYS.map((key) => `${config.jobKeyPrefix}${key}`);
const readJob = config.contractRead ? jobReader(redis) : undefined;
const waitListRead = config.contractRead
  ? setInterval(() => void redis.lrange(`${config.jobKeyPrefix}wait`, -10_000, -1).catch(() => undefined), 250)
  : undefined;

/** The job's hash as the contract read gets it (after a stat), or by one HGETALL. */
async function jobFields(md5: string, type: ThumbnailType): Promise<Record<string, string>> {
  const id = thumbnailJobId(md5, type);
  if (!config.contractRead || !readJob) return redis.hgetall(`${config.jobKeyPrefix}${id}`);
  // Its cost is what counts: the bench's jobs are queued, none has its file yet.
  statSync(path.join(config.contractRead.thumbsDir, thumbnailFileName(md5, type)), { throwIfNoEntry: false });
  return Object.fromEntries((await readJob(queueKeys, `${config.jobKeyPrefix}${id}`, id)).hash);
}

const retryAfter = String(Math.max(1, Math.ceil(config.defaultJobMs / 1000)));

serveCeiling(
  async (req, res) => {
    const match = PATH.exec(req.url ?? '');
    const [job] = await Promise.all([
      match ? jobFields(match[1]!, match[2] as ThumbnailType) : NO_JOB,
      countRequest?.(req, res),
    ]);
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
  },
  () => {
    clearInterval(waitListRead);
    return redis.quit();
  },
  { expressRoute: '/check/:first/:second' },
);
