import type { Redis } from 'ioredis';

/** Counts one hit in each key's fixed window (route and global, or one) atomically; returns counts and ms left. */
const HIT_SCRIPT = `
local result = {}
for i = 1, #KEYS do
  local count = redis.call('INCR', KEYS[i])
  local ttl = redis.call('PTTL', KEYS[i])
  if ttl < 0 then
    redis.call('PEXPIRE', KEYS[i], ARGV[i])
    ttl = tonumber(ARGV[i])
  end
  result[#result + 1] = count
  result[#result + 1] = ttl
end
return result
`;

export interface WindowState {
  count: number;
  resetInMs: number;
}

/** Fixed-window counters in Redis, shared by every instance on the same Redis. */
export class RateLimiter {
  constructor(private readonly redis: Redis, private readonly prefix: string) {
    redis.defineCommand('pawlinkRateLimitHit', { numberOfKeys: 2, lua: HIT_SCRIPT });
    redis.defineCommand('pawlinkRateLimitHitOne', { numberOfKeys: 1, lua: HIT_SCRIPT });
  }

  /** One hit in a single window. */
  async hitOne(key: string, windowMs: number): Promise<WindowState> {
    const command = (this.redis as unknown as Record<string, (...args: unknown[]) => Promise<number[]>>).pawlinkRateLimitHitOne;
    if (!command) throw new Error('rate limit script not defined');
    const [count = 0, ttl = 0] = await command.call(this.redis, `${this.prefix}${key}`, windowMs);
    return { count, resetInMs: ttl };
  }

  /** A window's state without counting a hit (count 0 when it has not started). */
  async peek(key: string): Promise<WindowState> {
    const fullKey = `${this.prefix}${key}`;
    const [count, ttl] = await Promise.all([this.redis.get(fullKey), this.redis.pttl(fullKey)]);
    return { count: Number(count ?? 0), resetInMs: Math.max(0, ttl) };
  }

  async hit(routeKey: string, routeWindowMs: number, globalKey: string, globalWindowMs: number): Promise<{ route: WindowState; global: WindowState }> {
    const command = (this.redis as unknown as Record<string, (...args: unknown[]) => Promise<number[]>>).pawlinkRateLimitHit;
    if (!command) throw new Error('rate limit script not defined');
    const [routeCount = 0, routeTtl = 0, globalCount = 0, globalTtl = 0] = await command.call(
      this.redis,
      `${this.prefix}${routeKey}`,
      `${this.prefix}${globalKey}`,
      routeWindowMs,
      globalWindowMs,
    );
    return { route: { count: routeCount, resetInMs: routeTtl }, global: { count: globalCount, resetInMs: globalTtl } };
  }
}
