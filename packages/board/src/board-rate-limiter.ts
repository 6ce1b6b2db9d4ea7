import type { Redis } from 'ioredis';

/*
 * Reserves the next free request slot, spaced `interval` ms apart, for every process sharing the
 * key. Redis' own clock is the reference so that hosts with skewed clocks still agree. Returns
 * how long the caller must wait before firing. With a maximum wait (ARGV[2] >= 0), a slot further
 * out than that is not reserved at all (wait -1), so a caller that gives up spends no budget.
 */
const RESERVE_SLOT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[1])
local maxWait = tonumber(ARGV[2])
local nextFree = tonumber(redis.call('GET', KEYS[1]) or '0')
local slot = math.max(now, nextFree)
if maxWait >= 0 and slot - now > maxWait then return {-1, slot} end
redis.call('SET', KEYS[1], tostring(slot + interval), 'PX', slot + interval - now + 1000)
return {slot - now, slot}
`;

/** A reserved request slot: wait `waitMs`, then fire; `slotAt` is the slot's time on Redis' clock (unix ms). */
export interface BoardSlot {
  waitMs: number;
  slotAt: number;
}

type ReserveSlot = (key: string, intervalMs: number, maxWaitMs: number) => Promise<BoardSlot | null>;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * At most `requestsPerSecond` board requests per second across every process that uses the same
 * Redis key: each caller reserves a slot atomically, then sleeps until it comes.
 */
export class BoardRateLimiter {
  private readonly intervalMs: number;
  private readonly reserve: ReserveSlot;

  constructor(private readonly redis: Redis, private readonly key: string, requestsPerSecond: number) {
    if (!(requestsPerSecond > 0)) throw new RangeError('requestsPerSecond must be positive');
    this.intervalMs = Math.ceil(1000 / requestsPerSecond);
    if (typeof (redis as unknown as { pawlinkBoardReserve?: unknown }).pawlinkBoardReserve !== 'function') {
      redis.defineCommand('pawlinkBoardReserve', { numberOfKeys: 1, lua: RESERVE_SLOT });
    }
    const command = (redis as unknown as { pawlinkBoardReserve: (key: string, interval: number, maxWait: number) => Promise<[number, number]> }).pawlinkBoardReserve.bind(redis);
    this.reserve = async (slotKey, intervalMs, maxWaitMs) => {
      const [waitMs, slotAt] = await command(slotKey, intervalMs, maxWaitMs);
      return Number(waitMs) < 0 ? null : { waitMs: Number(waitMs), slotAt: Number(slotAt) };
    };
  }

  /**
   * Reserves the next free slot without waiting for it; null (nothing reserved) when that slot is
   * more than `maxWaitMs` away.
   */
  reserveSlot(): Promise<BoardSlot>;
  reserveSlot(maxWaitMs: number): Promise<BoardSlot | null>;
  reserveSlot(maxWaitMs = Infinity): Promise<BoardSlot | null> {
    return this.reserve(this.key, this.intervalMs, Number.isFinite(maxWaitMs) ? Math.max(0, Math.floor(maxWaitMs)) : -1);
  }

  /** Resolves true when this caller may send one request; false, at once, when that is more than `maxWaitMs` away. */
  async acquire(maxWaitMs = Infinity): Promise<boolean> {
    const slot = await this.reserveSlot(maxWaitMs);
    if (slot === null) return false;
    if (slot.waitMs > 0) await sleep(slot.waitMs);
    return true;
  }
}
