import { Cluster } from 'ioredis';
import type { RedisClient } from '@pawlink/service-kit/redis';
import { HIT_SCRIPT, PEEK_SCRIPT, REFUND_SCRIPT, TAKE_IF_FITS_SCRIPT } from './rate-limit-scripts.repository.js';

export interface WindowState {
  count: number;
  resetInMs: number;
}

/** A fixed window to count a hit in. */
export interface Window {
  key: string;
  windowMs: number;
}

/** A window to take several units in, all or nothing: `limit` 0 is unlimited. */
export interface WeightedWindow extends Window {
  units: number;
  limit: number;
}

/** The outcome of `takeIfFits`: whether the units were taken, and the windows' states (after taking, if taken). */
export interface TakeOutcome {
  taken: boolean;
  states: WindowState[];
}

/** Counters that can take several units at once, all or nothing (a bulk request's items). */
export interface WeightedRateLimitWindows {
  /** Takes each window's units when every window has room for them, else takes nothing; atomic. */
  takeIfFits(windows: readonly WeightedWindow[]): Promise<TakeOutcome>;
}

const takeArgs = (windows: readonly WeightedWindow[]): number[] =>
  windows.flatMap((w) => [w.windowMs, w.units, w.limit]);
const takeOutcomeOf = (windows: readonly WeightedWindow[], raw: number[]): TakeOutcome => ({
  taken: Number(raw[0]) === 1,
  states: windows.map((_, i) => ({ count: Number(raw[1 + 2 * i] ?? 0), resetInMs: Number(raw[2 + 2 * i] ?? 0) })),
});

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

/** One request's windows waiting for the turn's call. */
interface PendingHit {
  keys: string[];
  windowMs: number[];
  resolve: (states: WindowState[]) => void;
  reject: (error: unknown) => void;
}

/** Windows counted by one call at most; a busier turn makes several calls. */
const MAX_KEYS_PER_CALL = 512;

/** The hash tag of a key (`{…}`), which decides its Redis Cluster slot; the whole key without one. */
function hashTagOf(key: string): string {
  const open = key.indexOf('{');
  const close = open === -1 ? -1 : key.indexOf('}', open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : key;
}

/**
 * Fixed-window counters in Redis, shared by every instance on the same Redis.
 *
 * The hits of one event-loop turn (the requests parsed from one poll of the sockets) are counted
 * by one script call instead of one call each: under load that is what a hit costs in CPU
 * (docs/adr/0011). A hit waits at most until the end of the turn. On a Redis Cluster a script's
 * keys must share a slot, so the calls there are grouped by hash tag (the identity).
 */
export class RedisRateLimitWindows implements RateLimitWindows {
  private readonly refundOne: (key: string) => Promise<number>;
  private readonly groupBySlot: boolean;
  private pending: PendingHit[] = [];

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {
    const commands = redis as unknown as Record<string, Script | undefined>;
    if (!commands.pawlinkRateLimitRefund)
      redis.defineCommand('pawlinkRateLimitRefund', { numberOfKeys: 1, lua: REFUND_SCRIPT });
    this.refundOne = (commands.pawlinkRateLimitRefund as Script).bind(redis) as unknown as (
      key: string,
    ) => Promise<number>;
    this.groupBySlot = redis instanceof Cluster;
  }

  /**
   * Runs a script over any number of keys. EVAL, not a defined command: ioredis routes a defined
   * command with a variable key count by its first argument, the count, so on a Cluster its
   * auto-pipeline would mix slots; EVAL's keys it knows.
   */
  private evalOver(script: string, keys: readonly string[], args: ReadonlyArray<string | number>): Promise<number[]> {
    return this.redis.eval(script, keys.length, ...keys, ...args) as Promise<number[]>;
  }

  hit(windows: readonly Window[]): Promise<WindowState[]> {
    if (windows.length === 0 || windows.length > 2) return Promise.reject(new RangeError('one or two windows per hit'));
    return new Promise((resolve, reject) => {
      if (this.pending.length === 0) setImmediate(() => this.countPending());
      this.pending.push({
        keys: windows.map((w) => `${this.prefix}${w.key}`),
        windowMs: windows.map((w) => w.windowMs),
        resolve,
        reject,
      });
    });
  }

  /** Counts the turn's hits: one call per group of keys that may share a script (all of them on one Redis). */
  private countPending(): void {
    const hits = this.pending;
    this.pending = [];
    const groups = new Map<string, PendingHit[]>();
    for (const hit of hits) {
      const group = this.groupBySlot ? hashTagOf(hit.keys[0]!) : '';
      const members = groups.get(group);
      if (members) members.push(hit);
      else groups.set(group, [hit]);
    }
    for (const members of groups.values()) {
      let call: PendingHit[] = [];
      let keyCount = 0;
      for (const hit of members) {
        if (keyCount + hit.keys.length > MAX_KEYS_PER_CALL) {
          this.count(call);
          call = [];
          keyCount = 0;
        }
        call.push(hit);
        keyCount += hit.keys.length;
      }
      if (call.length > 0) this.count(call);
    }
  }

  private count(hits: readonly PendingHit[]): void {
    const keys = hits.flatMap((hit) => hit.keys);
    const windowMs = hits.flatMap((hit) => hit.windowMs);
    this.evalOver(HIT_SCRIPT, keys, windowMs).then(
      (raw) => {
        let at = 0;
        for (const hit of hits) {
          hit.resolve(hit.keys.map(() => ({ count: Number(raw[at++] ?? 0), resetInMs: Number(raw[at++] ?? 0) })));
        }
      },
      (error: unknown) => {
        for (const hit of hits) hit.reject(error);
      },
    );
  }

  async refund(key: string): Promise<void> {
    await this.refundOne(`${this.prefix}${key}`);
  }

  async peek(keys: readonly string[]): Promise<WindowState[]> {
    if (keys.length === 0) return [];
    const raw = await this.evalOver(
      PEEK_SCRIPT,
      keys.map((key) => `${this.prefix}${key}`),
      [],
    );
    return keys.map((_, i) => ({ count: Number(raw[2 * i] ?? 0), resetInMs: Number(raw[2 * i + 1] ?? 0) }));
  }

  async takeIfFits(windows: readonly WeightedWindow[]): Promise<TakeOutcome> {
    if (windows.length === 0) return { taken: true, states: [] };
    // One identity's windows share its hash tag, so on a Cluster they are one slot.
    const raw = await this.evalOver(
      TAKE_IF_FITS_SCRIPT,
      windows.map((w) => `${this.prefix}${w.key}`),
      takeArgs(windows),
    );
    return takeOutcomeOf(windows, raw);
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
          if (!window && this.windows.size >= this.maxWindows)
            this.windows.delete(this.windows.keys().next().value as string);
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
        return window && window.resetsAt > now
          ? { count: window.count, resetInMs: window.resetsAt - now }
          : { count: 0, resetInMs: 0 };
      }),
    );
  }

  takeIfFits(windows: readonly WeightedWindow[]): Promise<TakeOutcome> {
    const now = this.now();
    const open = (key: string) => {
      const window = this.windows.get(key);
      return window && window.resetsAt > now ? window : undefined;
    };
    const taken = windows.every(({ key, units, limit }) => limit === 0 || (open(key)?.count ?? 0) + units <= limit);
    const states = windows.map(({ key, windowMs, units }) => {
      let window = open(key);
      if (!taken)
        return window ? { count: window.count, resetInMs: window.resetsAt - now } : { count: 0, resetInMs: 0 };
      if (!window) {
        if (!this.windows.has(key) && this.windows.size >= this.maxWindows)
          this.windows.delete(this.windows.keys().next().value as string);
        window = { count: 0, resetsAt: now + windowMs };
        this.windows.set(key, window);
      }
      window.count += units;
      return { count: window.count, resetInMs: window.resetsAt - now };
    });
    return Promise.resolve({ taken, states });
  }
}
