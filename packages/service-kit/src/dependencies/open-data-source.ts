import { setTimeout as sleep } from 'node:timers/promises';
import type { LogSink } from '../logger.js';
import { unavailableDependencyOf } from './dependency-failure.js';

/** What `openDataSource` needs of a typeorm DataSource. */
export interface Openable {
  initialize(): Promise<unknown>;
}

export interface OpenDataSourceOptions {
  /** The schema, for the log line. */
  name: string;
  logger: Pick<LogSink, 'warn' | 'info'>;
  /** How long to keep trying while MySQL does not answer (DB_BOOT_WAIT_MS); 0 tries once. */
  waitMs: number;
  now?: () => number;
  pause?: (ms: number) => Promise<unknown>;
}

/**
 * Opens a data source at boot. A MySQL that does not answer yet (refused, timed out: it is
 * starting, or the machine is busy) is tried again, 200 ms then up to 2 s apart, for `waitMs`,
 * with one log line when the wait starts and one when it ends; any other failure (a wrong
 * password, a missing schema) and the end of the wait fail at once, as before.
 */
export async function openDataSource(
  dataSource: Openable,
  { name, logger, waitMs, now = Date.now, pause = sleep }: OpenDataSourceOptions,
): Promise<void> {
  const giveUpAt = now() + waitMs;
  let delayMs = 200;
  let waiting = false;
  for (;;) {
    try {
      await dataSource.initialize();
      if (waiting) logger.info('database reached', { database: name });
      return;
    } catch (error) {
      if (unavailableDependencyOf(error) !== 'database' || now() + delayMs > giveUpAt) throw error;
      if (!waiting)
        logger.warn('database not reachable yet; trying again', {
          database: name,
          error: (error as Error).message,
          waitMs,
        });
      waiting = true;
      await pause(delayMs);
      delayMs = Math.min(2_000, delayMs * 2);
    }
  }
}
