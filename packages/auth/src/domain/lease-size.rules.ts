/**
 * How many units an instance leases from a shared window at once (docs/adr/0021). The requests
 * waiting now are always asked for (they will spend their units); beyond them, a key that sends
 * many requests gets what it would spend in `horizonMs` at its recent rate on this instance, never
 * more than `shareOfRemaining` of what no instance has leased yet, nor `maxUnits`, nor anything
 * for a small limit: what an instance holds unspent can only make other instances refuse early.
 */
export const LEASE_SIZING = {
  /** Below this limit every lease is for the waiting requests only. */
  smallLimit: 50,
  /** How long a block should last at the key's recent rate. */
  horizonMs: 250,
  /** The most of the window's unleased remainder one lease may take beyond the waiting requests. */
  shareOfRemaining: 1 / 8,
  /** The largest block. */
  maxUnits: 1_000,
} as const;

export interface LeaseSizeInput {
  limit: number;
  /** The window's count as last seen (every instance's leases in it), 0 when not seen yet. */
  sharedCount: number;
  /** Requests this instance served from the window, and over how many ms. */
  served: number;
  servedOverMs: number;
  /** Ms left in the window, as last seen (0 when not seen yet: the whole window is ahead). */
  resetInMs: number;
  /** Requests waiting now for a unit of this window. */
  waiting: number;
}

/** The units to ask for: at least the waiting requests, more for a busy key with room left. */
export function leaseSize(input: LeaseSizeInput, sizing = LEASE_SIZING): number {
  const waiting = Math.max(1, input.waiting);
  if (input.limit < sizing.smallLimit) return waiting;
  const unleased = Math.max(0, input.limit - input.sharedCount);
  const ratePerMs = input.served / Math.max(input.servedOverMs, sizing.horizonMs);
  const ahead = input.resetInMs > 0 ? Math.min(sizing.horizonMs, input.resetInMs) : sizing.horizonMs;
  const spare = Math.min(Math.ceil(ratePerMs * ahead), Math.floor(unleased * sizing.shareOfRemaining), sizing.maxUnits);
  return waiting + Math.max(0, spare);
}
