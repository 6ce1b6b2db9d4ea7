import { createHash, randomBytes } from 'node:crypto';
import type { RedisClient } from '@pawlink/service-kit/redis';

const hashOf = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * Sessions of the admin pages in Redis: `<prefix>admin:session:<sha256(token)>` → API key id, with
 * a TTL. The token lives only in the operator's cookie; Redis holds its hash, never the API key.
 */
export class AdminSessionRepository {
  constructor(
    private readonly redis: RedisClient,
    private readonly options: { redisPrefix: string; ttlSeconds: number },
  ) {}

  private keyOf(token: string): string {
    return `${this.options.redisPrefix}admin:session:${hashOf(token)}`;
  }

  /** A new random session token for `keyId`. */
  async create(keyId: number): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.redis.set(this.keyOf(token), String(keyId), 'EX', this.options.ttlSeconds);
    return token;
  }

  /** The key id of a live session; null when unknown or expired. */
  async find(token: string): Promise<number | null> {
    const value = await this.redis.get(this.keyOf(token));
    return value === null ? null : Number(value);
  }

  async delete(token: string): Promise<void> {
    await this.redis.del(this.keyOf(token));
  }

  get ttlSeconds(): number {
    return this.options.ttlSeconds;
  }
}
