import type { RedisClient } from '@pawlink/service-kit/redis';

/**
 * Kept longer than any delivery registered before the mark can still be waiting: a registration
 * lives a day, a job's end and the whole retry schedule (each delay at most a day) come within
 * another.
 */
const GONE_TTL_MS = 7 * 86_400_000;

/** Records the moment by Redis's clock, the one registrations are stamped with. */
const MARK_SCRIPT = `
local now = redis.call('TIME')
local ms = now[1] * 1000 + math.floor(now[2] / 1000)
redis.call('HSET', KEYS[1], ARGV[1], ms)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return ms
`;

/**
 * Callback URLs that answered 410 Gone, per API key: `<prefix>thumbs:callbacks:gone:<key id>`, field
 * the URL, value the unix ms (Redis time) of the 410. A delivery registered before that moment is
 * dropped; a registration made after it (the integrator asking again) is sent.
 */
export class CallbackGoneRepository {
  constructor(
    private readonly redis: RedisClient,
    private readonly redisPrefix: string,
  ) {}

  /** Marks `callbackURL` gone for key `apiKeyId` now; answers the moment (unix ms, Redis time). */
  async mark(apiKeyId: number, callbackURL: string): Promise<number> {
    const ms = await this.redis.eval(MARK_SCRIPT, 1, this.key(apiKeyId), callbackURL, String(GONE_TTL_MS));
    return Number(ms);
  }

  /** When `callbackURL` last answered 410 for key `apiKeyId` (unix ms), or null. */
  async since(apiKeyId: number, callbackURL: string): Promise<number | null> {
    const value = await this.redis.hget(this.key(apiKeyId), callbackURL);
    return value === null ? null : Number(value);
  }

  private key(apiKeyId: number): string {
    return `${this.redisPrefix}thumbs:callbacks:gone:${apiKeyId}`;
  }
}
