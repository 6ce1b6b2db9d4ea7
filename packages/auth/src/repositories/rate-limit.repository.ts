import type { RedisClient } from '@pawlink/service-kit/redis';

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

/** Takes back one hit, never below zero, and never creates the window. */
const REFUND_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then return redis.call('DECR', KEYS[1]) end
return 0
`;

/** Reads each key's count and ms left without counting anything; 0 and 0 for a window not open. */
const PEEK_SCRIPT = `
local result = {}
for i = 1, #KEYS do
  result[#result + 1] = tonumber(redis.call('GET', KEYS[i]) or '0')
  local ttl = redis.call('PTTL', KEYS[i])
  if ttl < 0 then ttl = 0 end
  result[#result + 1] = ttl
end
return result
`;

export interface WindowState {
  count: number;
  resetInMs: number;
}

/** A fixed window to count a hit in. */
export interface Window {
  key: string;
  windowMs: number;
}

/** Fixed-window counters; the Redis ones are shared by every instance, the local ones by none. */
export interface RateLimitWindows {
  /** One hit in each window, atomically; their states in the same order. */
  hit(windows: readonly Window[]): Promise<WindowState[]>;
  /** Takes back one hit of `key` (a key that turned out valid does not count as invalid). */
  refund(key: string): Promise<void>;
  /** The windows' states without counting a hit (count 0, resetInMs 0 for a window not open). */
  peek(keys: readonly string[]): Promise<WindowState[]>;
}

type Script = (...args: Array<string | number>) => Promise<number[]>;

/** Fixed-window counters in Redis, shared by every instance on the same Redis. */
export class RedisRateLimitWindows implements RateLimitWindows {
  private readonly hitOne: Script;
  private readonly hitTwo: Script;
  private readonly refundOne: (key: string) => Promise<number>;
  private readonly peekAll: Script;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {
    const commands = redis as unknown as Record<string, Script | undefined>;
    if (!commands.pawlinkRateLimitHit) {
      redis.defineCommand('pawlinkRateLimitHit', { numberOfKeys: 2, lua: HIT_SCRIPT });
      redis.defineCommand('pawlinkRateLimitHitOne', { numberOfKeys: 1, lua: HIT_SCRIPT });
      redis.defineCommand('pawlinkRateLimitRefund', { numberOfKeys: 1, lua: REFUND_SCRIPT });
    }
    // Defined apart: a Redis that already has the other commands (another instance) lacks it.
    if (!commands.pawlinkRateLimitPeek) redis.defineCommand('pawlinkRateLimitPeek', { lua: PEEK_SCRIPT });
    const bound = (name: string) => (commands[name] as Script).bind(redis);
    this.hitOne = bound('pawlinkRateLimitHitOne');
    this.hitTwo = bound('pawlinkRateLimitHit');
    this.refundOne = bound('pawlinkRateLimitRefund') as unknown as (key: string) => Promise<number>;
    this.peekAll = bound('pawlinkRateLimitPeek');
  }

  async hit(windows: readonly Window[]): Promise<WindowState[]> {
    if (windows.length === 0 || windows.length > 2) throw new RangeError('one or two windows per hit');
    const keys = windows.map((w) => `${this.prefix}${w.key}`);
    const raw = windows.length === 1 ? await this.hitOne(keys[0]!, windows[0]!.windowMs) : await this.hitTwo(keys[0]!, keys[1]!, windows[0]!.windowMs, windows[1]!.windowMs);
    return windows.map((_, i) => ({ count: Number(raw[2 * i] ?? 0), resetInMs: Number(raw[2 * i + 1] ?? 0) }));
  }

  async refund(key: string): Promise<void> {
    await this.refundOne(`${this.prefix}${key}`);
  }

  async peek(keys: readonly string[]): Promise<WindowState[]> {
    if (keys.length === 0) return [];
    // Without numberOfKeys, ioredis takes the key count as the first argument.
    const raw = await this.peekAll(keys.length, ...keys.map((key) => `${this.prefix}${key}`));
    return keys.map((_, i) => ({ count: Number(raw[2 * i] ?? 0), resetInMs: Number(raw[2 * i + 1] ?? 0) }));
  }
}

/**
 * The same counters in this process's memory, for while Redis is down: each instance then limits
 * on its own (N instances let up to N times the limit through), which beats refusing everyone.
 */
export class LocalRateLimitWindows implements RateLimitWindows {
  private readonly windows = new Map<string, { count: number; resetsAt: number }>();

  constructor(
    private readonly now: () => number = Date.now,
    /** Windows kept at most; past it the oldest are forgotten (they would only have let more through). */
    private readonly maxWindows = 100_000,
  ) {}

  hit(windows: readonly Window[]): Promise<WindowState[]> {
    const now = this.now();
    return Promise.resolve(
      windows.map(({ key, windowMs }) => {
        let window = this.windows.get(key);
        if (!window || window.resetsAt <= now) {
          if (!window && this.windows.size >= this.maxWindows) this.windows.delete(this.windows.keys().next().value as string);
          window = { count: 0, resetsAt: now + windowMs };
          this.windows.set(key, window);
        }
        window.count++;
        return { count: window.count, resetInMs: window.resetsAt - now };
      }),
    );
  }

  refund(key: string): Promise<void> {
    const window = this.windows.get(key);
    if (window && window.count > 0) window.count--;
    return Promise.resolve();
  }

  peek(keys: readonly string[]): Promise<WindowState[]> {
    const now = this.now();
    return Promise.resolve(
      keys.map((key) => {
        const window = this.windows.get(key);
        return window && window.resetsAt > now ? { count: window.count, resetInMs: window.resetsAt - now } : { count: 0, resetInMs: 0 };
      }),
    );
  }
}
