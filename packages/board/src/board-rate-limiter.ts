import type { RedisClient } from '@pawlink/service-kit/redis';

/*
 * Reserves the next free request slot, spaced `interval` ms apart, for every process sharing the
 * key. Redis' own clock is the reference so that hosts with skewed clocks still agree.
 *
 * KEYS[1] holds the next free slot; KEYS[2..n] are the requesters' sets of slots they booked that
 * have not come yet (score = member = slot time). ARGV[1] is the interval, ARGV[2] the longest
 * wait (< 0: any), ARGV[3..] each requester's share: the most slots it may hold booked ahead.
 *
 * Returns {wait, slot} for a reservation; {-1, slot} when the next slot is further out than the
 * longest wait; {-2, i, ms} when requester i (1-based) already holds its share, ms being how long
 * until the earliest slot it holds has passed (then it may book again). Refusals reserve
 * nothing, so a caller that gives up spends no budget. Checking and booking happen in one script,
 * so concurrent requests of one requester can never hold more than its share between them.
 */
const RESERVE_SLOT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[1])
local maxWait = tonumber(ARGV[2])
for i = 2, #KEYS do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now)
  if redis.call('ZCARD', KEYS[i]) >= tonumber(ARGV[i + 1]) then
    local earliest = redis.call('ZRANGE', KEYS[i], 0, 0, 'WITHSCORES')
    return {-2, i - 1, math.max(1, tonumber(earliest[2]) - now)}
  end
end
local nextFree = tonumber(redis.call('GET', KEYS[1]) or '0')
local slot = math.max(now, nextFree)
if maxWait >= 0 and slot - now > maxWait then return {-1, slot} end
redis.call('SET', KEYS[1], tostring(slot + interval), 'PX', slot + interval - now + 1000)
for i = 2, #KEYS do
  redis.call('ZADD', KEYS[i], slot, slot)
  redis.call('PEXPIRE', KEYS[i], slot - now + 1000)
end
return {slot - now, slot}
`;

/** A reserved request slot: wait `waitMs`, then fire; `slotAt` is the slot's time on Redis' clock (unix ms). */
export interface BoardSlot {
  waitMs: number;
  slotAt: number;
}

/**
 * Someone a board request is made for (an API key, a client IP), and its share of the budget: the
 * most slots it may hold booked ahead at once. Workers are nobody's requesters: they pass none.
 */
export interface BoardRequester {
  /** Stable and unique per requester, e.g. `key:42` or `ip:203.0.113.9`. */
  id: string;
  /** At least 1. */
  maxHeldSlots: number;
}

/**
 * Why nothing was reserved: the budget is booked too far ahead, or a requester holds its share
 * (and may book again in `retryAfterMs`, once the earliest slot it holds has passed).
 */
export type SlotRefusal =
  { reason: 'budget'; nextSlotAt: number } | { reason: 'share'; requester: BoardRequester; retryAfterMs: number };

type ReserveCommand = (
  numberOfKeys: number,
  ...keysAndArgs: Array<string | number>
) => Promise<[number, number, number?]>;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * At most `requestsPerSecond` board requests per second across every process that uses the same
 * Redis key: each caller reserves a slot atomically, then sleeps until it comes. Requesters may
 * be given a fair share, so one of them cannot book the whole budget ahead of everyone else.
 */
export class BoardRateLimiter {
  private readonly intervalMs: number;
  private readonly command: ReserveCommand;

  constructor(
    redis: RedisClient,
    private readonly key: string,
    requestsPerSecond: number,
  ) {
    if (!(requestsPerSecond > 0)) throw new RangeError('requestsPerSecond must be positive');
    this.intervalMs = Math.ceil(1000 / requestsPerSecond);
    const commands = redis as unknown as { pawlinkBoardReserveShare?: ReserveCommand };
    // No numberOfKeys: each call says how many requester keys it passes.
    if (typeof commands.pawlinkBoardReserveShare !== 'function')
      redis.defineCommand('pawlinkBoardReserveShare', { lua: RESERVE_SLOT });
    this.command = (redis as unknown as { pawlinkBoardReserveShare: ReserveCommand }).pawlinkBoardReserveShare.bind(
      redis,
    );
  }

  /**
   * The Redis key of a requester's booked slots (under the limiter's key, so its prefix covers it).
   * The script touches it with the limiter's key, so on a Redis Cluster both must share a slot:
   * a key without a hash tag hashes like `{key}`, which is the tag of every held key.
   */
  heldSlotsKey(requester: BoardRequester): string {
    return `${sameSlotAs(this.key)}:held:${requester.id}`;
  }

  /**
   * Reserves the next free slot without waiting for it. Refused, reserving nothing, when that slot
   * is more than `maxWaitMs` away or when one of `requesters` already holds its share.
   */
  async reserveFor(requesters: readonly BoardRequester[], maxWaitMs = Infinity): Promise<BoardSlot | SlotRefusal> {
    for (const requester of requesters) {
      if (!(Number.isSafeInteger(requester.maxHeldSlots) && requester.maxHeldSlots >= 1))
        throw new RangeError(`share of ${requester.id} must be a positive integer`);
    }
    const wait = Number.isFinite(maxWaitMs) ? Math.max(0, Math.floor(maxWaitMs)) : -1;
    const [first, second, third] = await this.command(
      1 + requesters.length,
      this.key,
      ...requesters.map((requester) => this.heldSlotsKey(requester)),
      this.intervalMs,
      wait,
      ...requesters.map((requester) => requester.maxHeldSlots),
    );
    const code = Number(first);
    if (code === -2)
      return { reason: 'share', requester: requesters[Number(second) - 1]!, retryAfterMs: Number(third) };
    if (code < 0) return { reason: 'budget', nextSlotAt: Number(second) };
    return { waitMs: code, slotAt: Number(second) };
  }

  /**
   * Reserves the next free slot without waiting for it; null (nothing reserved) when that slot is
   * more than `maxWaitMs` away.
   */
  reserveSlot(): Promise<BoardSlot>;
  reserveSlot(maxWaitMs: number): Promise<BoardSlot | null>;
  async reserveSlot(maxWaitMs = Infinity): Promise<BoardSlot | null> {
    const slot = await this.reserveFor([], maxWaitMs);
    return isRefusal(slot) ? null : slot;
  }

  /**
   * Waits for a slot and resolves null when this caller may send one request; resolves the
   * refusal, at once and without waiting, when the slot is more than `maxWaitMs` away or a
   * requester holds its share.
   */
  async acquireFor(requesters: readonly BoardRequester[], maxWaitMs = Infinity): Promise<SlotRefusal | null> {
    const slot = await this.reserveFor(requesters, maxWaitMs);
    if (isRefusal(slot)) return slot;
    if (slot.waitMs > 0) await sleep(slot.waitMs);
    return null;
  }

  /** Resolves true when this caller may send one request; false, at once, when that is more than `maxWaitMs` away. */
  async acquire(maxWaitMs = Infinity): Promise<boolean> {
    return (await this.acquireFor([], maxWaitMs)) === null;
  }
}

/** A key prefix in the Redis Cluster slot of `key`: its own hash tag, or the whole key as one. */
function sameSlotAs(key: string): string {
  const open = key.indexOf('{');
  const close = open >= 0 ? key.indexOf('}', open + 1) : -1;
  return close > open + 1 ? key : `{${key}}`;
}

/** Whether a reservation was refused. */
export function isRefusal(result: BoardSlot | SlotRefusal): result is SlotRefusal {
  return 'reason' in result;
}
