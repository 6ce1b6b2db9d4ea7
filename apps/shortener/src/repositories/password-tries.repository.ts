import { LINK_PASSWORD_TRIES_PER_MINUTE } from '@pawlink/contracts';
import { logUnlessUnavailable, type Logger } from '@pawlink/service-kit';
import type { RedisClient } from '@pawlink/service-kit/redis';

const WINDOW_MS = 60_000;

/** One fixed window's hit, atomically: the count after it and the ms until the window closes (ADR 0004's style). */
const HIT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) ttl = tonumber(ARGV[1]) end
return {n, ttl}`;

/** Where an address stands with one link's password: the seconds to wait, or null when it may try. */
export interface TriesState {
  retryAfterSeconds: number | null;
}

const OPEN: TriesState = { retryAfterSeconds: null };

/**
 * Wrong passwords per client address and link, in fixed one-minute Redis windows shared by every
 * instance (ADR 0004): at most LINK_PASSWORD_TRIES_PER_MINUTE, then 429 until the window closes.
 * Redis trouble lets the try through (scrypt still makes each guess slow), as the lookup limit does.
 */
export class PasswordTriesRepository {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly logger: Logger,
  ) {}

  private key(code: string, address: string): string {
    return `${this.prefix}shortener:password-tries:${code}:${address}`;
  }

  private readonly failed = (error: unknown): TriesState => {
    logUnlessUnavailable(this.logger, 'password tries unavailable')(error);
    return OPEN;
  };

  /** Whether the address has tries left on the link, without using one. */
  async state(code: string, address: string): Promise<TriesState> {
    try {
      const key = this.key(code, address);
      const [count, ttl] = await Promise.all([this.redis.get(key), this.redis.pttl(key)]);
      return Number(count ?? 0) >= LINK_PASSWORD_TRIES_PER_MINUTE ? this.waitFor(ttl) : OPEN;
    } catch (error) {
      return this.failed(error);
    }
  }

  /** Counts one wrong password; the state after it. */
  async wrong(code: string, address: string): Promise<TriesState> {
    try {
      const [count, ttl] = (await this.redis.eval(HIT, 1, this.key(code, address), WINDOW_MS)) as [number, number];
      return count > LINK_PASSWORD_TRIES_PER_MINUTE ? this.waitFor(ttl) : OPEN;
    } catch (error) {
      return this.failed(error);
    }
  }

  private waitFor(ttlMs: number): TriesState {
    return { retryAfterSeconds: Math.max(1, Math.ceil((ttlMs > 0 ? ttlMs : WINDOW_MS) / 1000)) };
  }
}
