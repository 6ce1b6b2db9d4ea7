import type { Redis } from 'ioredis';

/*
 * Reserves the next free request slot, spaced `interval` ms apart, for every process sharing the
 * key. Redis' own clock is the reference so that hosts with skewed clocks still agree. Returns
 * how long the caller must wait before firing.
 */
const RESERVE_SLOT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[1])
local nextFree = tonumber(redis.call('GET', KEYS[1]) or '0')
local slot = math.max(now, nextFree)
redis.call('SET', KEYS[1], tostring(slot + interval), 'PX', slot + interval - now + 1000)
return {slot - now, slot}
`;

/** A reserved request slot: wait `waitMs`, then fire; `slotAt` is the slot's time on Redis' clock (unix ms). */
export interface BoardSlot {
  waitMs: number;
  slotAt: number;
}

type ReserveSlot = (key: string, intervalMs: number) => Promise<BoardSlot>;

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
    const command = (redis as unknown as { pawlinkBoardReserve: (key: string, interval: number) => Promise<[number, number]> }).pawlinkBoardReserve.bind(redis);
    this.reserve = async (slotKey, intervalMs) => {
      const [waitMs, slotAt] = await command(slotKey, intervalMs);
      return { waitMs: Number(waitMs), slotAt: Number(slotAt) };
    };
  }

  /** Reserves the next free slot without waiting for it. */
  reserveSlot(): Promise<BoardSlot> {
    return this.reserve(this.key, this.intervalMs);
  }

  /** Resolves when this caller may send one request. */
  async acquire(): Promise<void> {
    const { waitMs } = await this.reserveSlot();
    if (waitMs > 0) await sleep(waitMs);
  }
}
