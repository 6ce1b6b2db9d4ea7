import { thumbnailCallbacksKey, thumbnailJobId, type ThumbnailType } from '@pawlink/contracts';
import type { RedisClient } from '@pawlink/service-kit/redis';

/** Registrations outlive any job they wait for; one whose end was never seen is forgotten after this. */
const REGISTRATION_TTL_SECONDS = 86_400;

/**
 * Registers URL → `<key id>:<Redis time in ms>`. Redis's own clock, the one its event streams are
 * stamped with: the worker fires a registration only for a job end after it, so an earlier job's
 * end that the worker reads late never answers a PUT made for the next job.
 */
const REGISTER_SCRIPT = `
local now = redis.call('TIME')
local ms = now[1] * 1000 + math.floor(now[2] / 1000)
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. ':' .. ms)
redis.call('EXPIRE', KEYS[1], ARGV[3])
return ms
`;

/**
 * The callback URLs registered for the one job of (md5, type), in Redis where the worker that
 * sees the job end takes them (contracts' `thumbnailCallbacksKey`).
 */
export class ThumbnailCallbackRepository {
  constructor(
    private readonly redis: RedisClient,
    private readonly redisPrefix: string,
  ) {}

  async register(md5: string, type: ThumbnailType, callbackURL: string, apiKeyId: number): Promise<void> {
    await this.redis.eval(
      REGISTER_SCRIPT,
      1,
      thumbnailCallbacksKey(this.redisPrefix, thumbnailJobId(md5, type)),
      callbackURL,
      String(apiKeyId),
      String(REGISTRATION_TTL_SECONDS),
    );
  }

  /** Takes back a registration whose PUT was not answered "processing": that job has already ended. */
  async unregister(md5: string, type: ThumbnailType, callbackURL: string): Promise<void> {
    await this.redis.hdel(thumbnailCallbacksKey(this.redisPrefix, thumbnailJobId(md5, type)), callbackURL);
  }
}
