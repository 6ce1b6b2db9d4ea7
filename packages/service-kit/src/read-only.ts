import type { ServiceName } from '@pawlink/contracts';
import { SERVICES } from '@pawlink/contracts';
import type { RedisClient } from './redis.js';
import type { Logger } from './logger.js';

export const readOnlyKey = (redisPrefix: string, service: ServiceName): string => `${redisPrefix}readonly:${service}`;

/*
 * One command per service's key, not MGET or a pipeline: on a Redis Cluster the keys lie in
 * different slots; auto-pipelining still sends them in one write.
 */

/** Writes the switch for one or every service; read by every running instance within a second. */
export async function setReadOnly(
  redis: RedisClient,
  redisPrefix: string,
  services: readonly ServiceName[],
  on: boolean,
): Promise<void> {
  await Promise.all(services.map((service) => redis.set(readOnlyKey(redisPrefix, service), on ? '1' : '0')));
}

/** The stored switch per service; null where nothing was stored (the env default applies). */
export async function getReadOnly(
  redis: RedisClient,
  redisPrefix: string,
): Promise<Record<ServiceName, boolean | null>> {
  const values = await Promise.all(SERVICES.map((s) => redis.get(readOnlyKey(redisPrefix, s))));
  const result = {} as Record<ServiceName, boolean | null>;
  SERVICES.forEach((service, i) => {
    const value = values[i];
    result[service] = value === '1' ? true : value === '0' ? false : null;
  });
  return result;
}

/**
 * The run-time read-only switch of one service, polled from Redis so requests check it
 * synchronously. Polling (not pub/sub) keeps it correct after a Redis reconnect.
 */
export class ReadOnlySwitch {
  private current: boolean;
  private timer: NodeJS.Timeout | undefined;
  private failing = false;

  constructor(
    private readonly redis: RedisClient,
    private readonly redisPrefix: string,
    private readonly service: ServiceName,
    private readonly fallback: boolean,
    private readonly logger?: Logger,
    private readonly pollMs = 500,
  ) {
    this.current = fallback;
  }

  get enabled(): boolean {
    return this.current;
  }

  async refresh(): Promise<boolean> {
    const value = await this.redis.get(readOnlyKey(this.redisPrefix, this.service));
    const next = value === '1' ? true : value === '0' ? false : this.fallback;
    if (next !== this.current) this.logger?.info('read-only switch changed', { readOnly: next });
    this.current = next;
    return next;
  }

  async start(): Promise<void> {
    await this.poll();
    this.timer = setInterval(() => void this.poll(), this.pollMs);
    this.timer.unref();
  }

  /**
   * One refresh; while Redis cannot be asked the last known value stays in force, and the failure
   * is logged once, not on every poll (the connection's own monitor reports the outage too).
   */
  private async poll(): Promise<void> {
    try {
      await this.refresh();
      this.failing = false;
    } catch (error) {
      if (!this.failing)
        this.logger?.warn('read-only switch unreadable; keeping the last known value', {
          readOnly: this.current,
          error: (error as Error).message,
        });
      this.failing = true;
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
