import { unavailableDependencyOf, type LogSink } from '@pawlink/service-kit';
import type {
  LeaseGrant,
  LeaseRequest,
  LeasingRateLimitWindows,
  RateLimitWindows,
  TakeOutcome,
  WeightedRateLimitWindows,
  WeightedWindow,
  Window,
  WindowState,
} from './rate-limit.repository.js';

/**
 * Counts in Redis, and in this process while Redis is unavailable (logged once when it goes and
 * once when it is back), so rate limits never turn a Redis outage into failed requests.
 */
export class ResilientRateLimitWindows implements RateLimitWindows, LeasingRateLimitWindows {
  private usingLocal = false;

  constructor(
    private readonly shared: RateLimitWindows,
    private readonly local: RateLimitWindows,
    private readonly logger: LogSink,
  ) {}

  async hit(windows: readonly Window[]): Promise<WindowState[]> {
    try {
      const states = await this.shared.hit(windows);
      this.sharedAnswered();
      return states;
    } catch (error) {
      this.sharedFailed(error);
      return this.local.hit(windows);
    }
  }

  async lease(windows: readonly LeaseRequest[]): Promise<LeaseGrant[]> {
    try {
      const grants = await leasing(this.shared as Partial<LeasingRateLimitWindows>).lease(windows);
      this.sharedAnswered();
      return grants;
    } catch (error) {
      this.sharedFailed(error);
      return leasing(this.local as Partial<LeasingRateLimitWindows>).lease(windows);
    }
  }

  async refund(key: string): Promise<void> {
    try {
      await this.shared.refund(key);
    } catch (error) {
      this.sharedFailed(error);
      await this.local.refund(key);
    }
  }

  async peek(keys: readonly string[]): Promise<WindowState[]> {
    try {
      return await this.shared.peek(keys);
    } catch (error) {
      this.sharedFailed(error);
      return this.local.peek(keys);
    }
  }

  private sharedFailed(error: unknown): void {
    if (unavailableDependencyOf(error) !== 'redis') throw error;
    if (this.usingLocal) return;
    this.usingLocal = true;
    this.logger.warn('rate limits counted in this process while Redis is unavailable', {
      error: (error as Error).message,
    });
  }

  private sharedAnswered(): void {
    if (!this.usingLocal) return;
    this.usingLocal = false;
    this.logger.info('rate limits shared through Redis again');
  }

  async takeIfFits(windows: readonly WeightedWindow[]): Promise<TakeOutcome> {
    try {
      const outcome = await weighted(this.shared as Partial<WeightedRateLimitWindows>).takeIfFits(windows);
      this.sharedAnswered();
      return outcome;
    } catch (error) {
      this.sharedFailed(error);
      return weighted(this.local as Partial<WeightedRateLimitWindows>).takeIfFits(windows);
    }
  }
}

/** Counters that take several units at once; the windows given to a weighted limit must be. */
function weighted(windows: Partial<WeightedRateLimitWindows>): WeightedRateLimitWindows {
  if (!windows.takeIfFits) throw new TypeError('these rate-limit windows cannot take several units at once');
  return windows as WeightedRateLimitWindows;
}

/** Counters that lease blocks; the windows given to leased quotas must be. */
function leasing(windows: Partial<LeasingRateLimitWindows>): LeasingRateLimitWindows {
  if (!windows.lease) throw new TypeError('these rate-limit windows cannot lease blocks of units');
  return windows as LeasingRateLimitWindows;
}
