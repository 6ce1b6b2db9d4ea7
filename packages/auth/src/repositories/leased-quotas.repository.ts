import { leaseSize, LEASE_SIZING } from '../domain/lease-size.rules.js';
import type { LeaseGrant, LeasingRateLimitWindows, WindowState } from './rate-limit.repository.js';

/** A window with a limit (> 0) to spend a unit of. */
export interface QuotaWindow {
  key: string;
  windowMs: number;
  limit: number;
}

/**
 * Whether a unit was spent, and the window as this instance sees it: `count` is what has been
 * spent (the shared count less the units this instance still holds), so `limit − count` is what
 * the key can still be served as far as this instance knows.
 */
export interface QuotaUse {
  taken: boolean;
  state: WindowState;
}

/** One window's block on this instance. */
interface Quota {
  key: string;
  windowMs: number;
  limit: number;
  /** Leased units not yet spent. */
  held: number;
  /** The window's shared count at the last lease (every instance's leases in it). */
  sharedCount: number;
  /** When the window ends, by this clock (0: not leased yet); held units are gone then. */
  endsAt: number;
  /** Units spent here since the window was first leased, and since when: the key's recent rate. */
  served: number;
  since: number;
  /** Requests waiting for a unit while a lease is on its way. */
  waiting: Array<{ resolve: (use: QuotaUse) => void; reject: (error: unknown) => void }>;
  leasing: boolean;
}

export interface LeasedQuotasOptions {
  windows: LeasingRateLimitWindows;
  now?: () => number;
  /** Windows remembered at most; past it the oldest idle one is forgotten (its held units only refuse early elsewhere). */
  maxQuotas?: number;
  sizing?: typeof LEASE_SIZING;
}

/**
 * Leased quotas (docs/adr/0021): units of the shared fixed windows leased a block at a time and
 * spent here without a round trip until the block is spent or the window ends. A lease never
 * takes the shared count past the limit, so every instance together admits at most the limit; a
 * key may be refused early while other instances hold unspent units. The leases of one event-loop
 * turn go in one call (`LeasingRateLimitWindows.lease`).
 */
export class LeasedQuotasRepository {
  private readonly quotas = new Map<string, Quota>();
  private readonly due = new Set<Quota>();
  private readonly now: () => number;
  private readonly maxQuotas: number;
  private readonly sizing: typeof LEASE_SIZING;

  constructor(private readonly options: LeasedQuotasOptions) {
    this.now = options.now ?? Date.now;
    this.maxQuotas = options.maxQuotas ?? 100_000;
    this.sizing = options.sizing ?? LEASE_SIZING;
  }

  /** Spends one unit of `window`: at once from the block held, else once the turn's lease answers. */
  take(window: QuotaWindow): QuotaUse | Promise<QuotaUse> {
    const now = this.now();
    const quota = this.quotaOf(window, now);
    if (quota.held > 0 && quota.waiting.length === 0) {
      quota.held--;
      quota.served++;
      return { taken: true, state: this.stateOf(quota, now) };
    }
    // Leases never go back to Redis, so a window whose count reached the limit stays spent until it ends.
    if (quota.held === 0 && quota.endsAt > now && quota.sharedCount >= quota.limit && !quota.leasing)
      return { taken: false, state: this.stateOf(quota, now) };
    return new Promise<QuotaUse>((resolve, reject) => {
      quota.waiting.push({ resolve, reject });
      this.leaseSoon(quota);
    });
  }

  /** Takes up to `units` of the block held for `key` out of it (a weighted request spends them with the rest it takes). */
  withdraw(key: string, units: number): number {
    const quota = this.openQuota(key);
    if (!quota) return 0;
    const withdrawn = Math.min(units, quota.held);
    quota.held -= withdrawn;
    quota.served += withdrawn;
    return withdrawn;
  }

  /** Puts units back in the block they were taken from (a request that did not go through after all). */
  giveBack(key: string, units: number): void {
    const quota = this.openQuota(key);
    if (!quota || units <= 0) return;
    quota.held += units;
    quota.served = Math.max(0, quota.served - units);
    this.serveWaiting(quota);
  }

  /** Units this instance holds unspent in `key`'s open window. */
  heldOf(key: string): number {
    return this.openQuota(key)?.held ?? 0;
  }

  /** `key`'s window as this instance sees it (count 0, resetInMs 0 when it holds no open window). */
  seenOf(key: string): WindowState {
    const quota = this.openQuota(key);
    return quota ? this.stateOf(quota, this.now()) : { count: 0, resetInMs: 0 };
  }

  /** Records a window's shared count read by another way (a weighted take), for the next lease's size. */
  saw(key: string, count: number): void {
    const quota = this.openQuota(key);
    if (quota) quota.sharedCount = Math.max(quota.sharedCount, count);
  }

  private openQuota(key: string): Quota | undefined {
    const quota = this.quotas.get(key);
    return quota && quota.endsAt > this.now() ? quota : undefined;
  }

  private quotaOf(window: QuotaWindow, now: number): Quota {
    let quota = this.quotas.get(window.key);
    if (!quota) {
      if (this.quotas.size >= this.maxQuotas) this.forgetOldestIdle();
      quota = {
        key: window.key,
        windowMs: window.windowMs,
        limit: window.limit,
        held: 0,
        sharedCount: 0,
        endsAt: 0,
        served: 0,
        since: now,
        waiting: [],
        leasing: false,
      };
      this.quotas.set(window.key, quota);
    } else if (quota.endsAt !== 0 && quota.endsAt <= now && !quota.leasing) {
      // The window ended: what was held went with it, and the rate starts again.
      Object.assign(quota, { held: 0, sharedCount: 0, endsAt: 0, served: 0, since: now });
    }
    // A key's limit can change (its override, on the next key lookup): the next lease uses the new one.
    quota.limit = window.limit;
    quota.windowMs = window.windowMs;
    return quota;
  }

  private forgetOldestIdle(): void {
    for (const [key, quota] of this.quotas) {
      if (quota.leasing || quota.waiting.length > 0) continue;
      this.quotas.delete(key);
      return;
    }
  }

  private stateOf(quota: Quota, now: number): WindowState {
    return { count: Math.max(0, quota.sharedCount - quota.held), resetInMs: Math.max(0, quota.endsAt - now) };
  }

  private leaseSoon(quota: Quota): void {
    if (quota.leasing) return;
    if (this.due.size === 0) setImmediate(() => this.leaseDue());
    this.due.add(quota);
  }

  /** One call for every window that needs units this turn. */
  private leaseDue(): void {
    const quotas = [...this.due];
    this.due.clear();
    const sentAt = this.now();
    const requests = quotas.map((quota) => {
      quota.leasing = true;
      const open = quota.endsAt > sentAt;
      return {
        key: quota.key,
        windowMs: quota.windowMs,
        limit: quota.limit,
        units: leaseSize(
          {
            limit: quota.limit,
            sharedCount: open ? quota.sharedCount : 0,
            served: quota.served,
            servedOverMs: sentAt - quota.since,
            resetInMs: open ? quota.endsAt - sentAt : 0,
            waiting: quota.waiting.length - quota.held,
          },
          this.sizing,
        ),
      };
    });
    this.options.windows.lease(requests).then(
      (grants) => quotas.forEach((quota, i) => this.granted(quota, requests[i]!.units, grants[i]!, sentAt)),
      (error: unknown) => {
        for (const quota of quotas) {
          quota.leasing = false;
          for (const waiter of quota.waiting.splice(0)) waiter.reject(error);
        }
      },
    );
  }

  private granted(quota: Quota, asked: number, grant: LeaseGrant, sentAt: number): void {
    quota.leasing = false;
    // Units given back while the lease was on its way belong to a window that may have ended.
    if (quota.endsAt <= sentAt) quota.held = 0;
    // Measured from when the lease was sent, the window ends here no later than in Redis.
    const endsAt = sentAt + grant.resetInMs;
    quota.endsAt = endsAt;
    quota.sharedCount = grant.count;
    quota.held += grant.granted;
    this.serveWaiting(quota);
    if (quota.waiting.length === 0) return;
    if (grant.granted < asked) {
      // The window had less than asked: it is spent, and the rest are refused until it ends.
      const now = this.now();
      for (const waiter of quota.waiting.splice(0)) waiter.resolve({ taken: false, state: this.stateOf(quota, now) });
      return;
    }
    this.leaseSoon(quota);
  }

  private serveWaiting(quota: Quota): void {
    const now = this.now();
    while (quota.held > 0 && quota.waiting.length > 0) {
      quota.held--;
      quota.served++;
      quota.waiting.shift()!.resolve({ taken: true, state: this.stateOf(quota, now) });
    }
  }
}
