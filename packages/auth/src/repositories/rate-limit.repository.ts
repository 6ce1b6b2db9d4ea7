import { Cluster } from 'ioredis';
import type { RedisClient } from '@pawlink/service-kit/redis';
import {
  HIT_SCRIPT,
  LEASE_SCRIPT,
  PEEK_SCRIPT,
  REFUND_SCRIPT,
  TAKE_IF_FITS_SCRIPT,
} from './rate-limit-scripts.repository.js';

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

/** A block of units to lease from a window with a limit (> 0). */
export interface LeaseRequest extends Window {
  units: number;
  limit: number;
}

/** What a lease got: `granted` units (fewer than asked, or 0, when the window is nearly or wholly spent) and the window after it. */
export interface LeaseGrant extends WindowState {
  granted: number;
}

/** Counters that lease blocks of units (docs/adr/0021): the count never passes the limit. */
export interface LeasingRateLimitWindows {
  /** Leases each window's block, atomically per window; the grants in the same order. */
  lease(windows: readonly LeaseRequest[]): Promise<LeaseGrant[]>;
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

/** One request's windows waiting for the turn's call: its keys, the script's arguments for them, and who waits. */
interface PendingCall<R> {
  keys: string[];
  args: number[];
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/** The calls of one script gathered in one event-loop turn, and how one call's part of the reply reads. */
interface TurnBatch<R> {
  script: string;
  /** Numbers the script returns per key. */
  width: number;
  read: (raw: number[], at: number, keyCount: number) => R;
  pending: Array<PendingCall<R>>;
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
export class RedisRateLimitWindows implements RateLimitWindows, LeasingRateLimitWindows {
  private readonly refundOne: (key: string) => Promise<number>;
  private readonly groupBySlot: boolean;
  private readonly hits: TurnBatch<WindowState[]> = {
    script: HIT_SCRIPT,
    width: 2,
    read: (raw, at, keyCount) =>
      Array.from({ length: keyCount }, (_, i) => ({
        count: Number(raw[at + 2 * i] ?? 0),
        resetInMs: Number(raw[at + 2 * i + 1] ?? 0),
      })),
    pending: [],
  };
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
    return this.enqueue(
      this.hits,
      windows.map((w) => w.key),
      windows.map((w) => w.windowMs),
    );
  }

  /**
   * Leases every window's block, in one script call per group of windows that may share one (all
   * of them on one Redis; one hash tag each on a Cluster). The caller gathers a turn's leases.
   */
  async lease(windows: readonly LeaseRequest[]): Promise<LeaseGrant[]> {
    if (windows.some((w) => !(w.limit > 0) || !(w.units > 0)))
      throw new RangeError('a lease asks for units of a window with a limit');
    const groups = new Map<string, number[]>();
    windows.forEach((window, i) => {
      const group = this.groupBySlot ? hashTagOf(window.key) : '';
      const members = groups.get(group);
      if (members) members.push(i);
      else groups.set(group, [i]);
    });
    const chunks = [...groups.values()].flatMap((members) =>
      Array.from({ length: Math.ceil(members.length / MAX_KEYS_PER_CALL) }, (_, c) =>
        members.slice(c * MAX_KEYS_PER_CALL, (c + 1) * MAX_KEYS_PER_CALL),
      ),
    );
    const grants: LeaseGrant[] = new Array<LeaseGrant>(windows.length);
    await Promise.all(
      chunks.map(async (chunk) => {
        const raw = await this.evalOver(
          LEASE_SCRIPT,
          chunk.map((i) => `${this.prefix}${windows[i]!.key}`),
          chunk.flatMap((i) => [windows[i]!.windowMs, windows[i]!.units, windows[i]!.limit]),
        );
        chunk.forEach((i, at) => {
          grants[i] = {
            granted: Number(raw[3 * at] ?? 0),
            count: Number(raw[3 * at + 1] ?? 0),
            resetInMs: Number(raw[3 * at + 2] ?? 0),
          };
        });
      }),
    );
    return grants;
  }

  private enqueue<R>(batch: TurnBatch<R>, keys: readonly string[], args: number[]): Promise<R> {
    return new Promise((resolve, reject) => {
      if (batch.pending.length === 0) setImmediate(() => this.sendPending(batch));
      batch.pending.push({ keys: keys.map((key) => `${this.prefix}${key}`), args, resolve, reject });
    });
  }

  /** Sends the turn's calls: one per group of keys that may share a script (all of them on one Redis). */
  private sendPending<R>(batch: TurnBatch<R>): void {
    const calls = batch.pending;
    batch.pending = [];
    const groups = new Map<string, Array<PendingCall<R>>>();
    for (const call of calls) {
      const group = this.groupBySlot ? hashTagOf(call.keys[0]!) : '';
      const members = groups.get(group);
      if (members) members.push(call);
      else groups.set(group, [call]);
    }
    for (const members of groups.values()) {
      let chunk: Array<PendingCall<R>> = [];
      let keyCount = 0;
      for (const call of members) {
        if (keyCount + call.keys.length > MAX_KEYS_PER_CALL) {
          this.send(batch, chunk);
          chunk = [];
          keyCount = 0;
        }
        chunk.push(call);
        keyCount += call.keys.length;
      }
      if (chunk.length > 0) this.send(batch, chunk);
    }
  }

  private send<R>(batch: TurnBatch<R>, calls: ReadonlyArray<PendingCall<R>>): void {
    this.evalOver(
      batch.script,
      calls.flatMap((call) => call.keys),
      calls.flatMap((call) => call.args),
    ).then(
      (raw) => {
        let at = 0;
        for (const call of calls) {
          call.resolve(batch.read(raw, at, call.keys.length));
          at += batch.width * call.keys.length;
        }
      },
      (error: unknown) => {
        for (const call of calls) call.reject(error);
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
export class LocalRateLimitWindows implements RateLimitWindows, LeasingRateLimitWindows {
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

  lease(windows: readonly LeaseRequest[]): Promise<LeaseGrant[]> {
    const now = this.now();
    return Promise.resolve(
      windows.map(({ key, windowMs, units, limit }) => {
        let window = this.windows.get(key);
        if (!window || window.resetsAt <= now) {
          if (!window && this.windows.size >= this.maxWindows)
            this.windows.delete(this.windows.keys().next().value as string);
          window = { count: 0, resetsAt: now + windowMs };
          this.windows.set(key, window);
        }
        const granted = Math.max(0, Math.min(units, limit - window.count));
        window.count += granted;
        return { granted, count: window.count, resetInMs: window.resetsAt - now };
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
