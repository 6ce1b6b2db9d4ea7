import { thumbnailCallbacksKey, thumbnailJobId, type ThumbnailType } from '@pawlink/contracts';
import type { RedisClient } from '@pawlink/service-kit/redis';

/** Registrations outlive any job they wait for; one whose end was never seen is forgotten after this. */
const REGISTRATION_TTL_SECONDS = 86_400;

/**
 * The callback URLs registered for the one job of (md5, type), in Redis where the worker that
 * sees the job end takes them (contracts' `thumbnailCallbacksKey`): URL → API key id.
 */
export class ThumbnailCallbackRepository {
  constructor(
    private readonly redis: RedisClient,
    private readonly redisPrefix: string,
  ) {}

  async register(md5: string, type: ThumbnailType, callbackURL: string, apiKeyId: number): Promise<void> {
    const key = thumbnailCallbacksKey(this.redisPrefix, thumbnailJobId(md5, type));
    await this.redis.multi().hset(key, callbackURL, String(apiKeyId)).expire(key, REGISTRATION_TTL_SECONDS).exec();
  }

  /** Takes back a registration whose PUT was not answered "processing": that job has already ended. */
  async unregister(md5: string, type: ThumbnailType, callbackURL: string): Promise<void> {
    await this.redis.hdel(thumbnailCallbacksKey(this.redisPrefix, thumbnailJobId(md5, type)), callbackURL);
  }
}
