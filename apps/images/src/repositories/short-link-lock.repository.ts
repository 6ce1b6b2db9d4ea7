import { randomBytes } from 'node:crypto';
import type { RedisClient } from '@pawlink/service-kit/redis';
import { imagesKey } from './record-cache.repository.js';

// Only the holder (the token) may extend or release the lock.
const EXTEND = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/**
 * One images instance at a time fills short links: `<prefix>{images}:short-links:lock`, held with
 * an expiry so a process that dies mid-pass lets the others take over within `ttlMs`.
 */
export class ShortLinkLockRepository {
  private readonly key: string;
  private readonly token = randomBytes(12).toString('hex');

  constructor(
    private readonly redis: RedisClient,
    redisPrefix: string,
    private readonly ttlMs = 30_000,
  ) {
    this.key = imagesKey(redisPrefix, 'short-links:lock');
  }

  /** True when this process holds the lock now (taken, or already its own and extended). */
  async acquire(): Promise<boolean> {
    if ((await this.redis.set(this.key, this.token, 'PX', this.ttlMs, 'NX')) === 'OK') return true;
    return (await this.redis.eval(EXTEND, 1, this.key, this.token, this.ttlMs)) === 1;
  }

  async release(): Promise<void> {
    await this.redis.eval(RELEASE, 1, this.key, this.token);
  }
}
