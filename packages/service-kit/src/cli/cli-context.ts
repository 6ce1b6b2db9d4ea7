import type { RedisClient } from '../redis.js';
import type { DataSource } from 'typeorm';
import type { BaseConfig } from '../base-config.js';
import type { DataSourceSpec } from '../database.js';

/**
 * What a `bin/admin` command may use, opened on first use and closed by the program once the
 * command ends (tools/admin's AdminContext; tests pass their own). Commands never close these.
 */
export interface CliContext {
  readonly config: BaseConfig;
  /** A plain connection (caches, indexes, switches). */
  readonly redis: RedisClient;
  /** A connection BullMQ can use (`maxRetriesPerRequest: null`). */
  queueRedis(): RedisClient;
  dataSource(spec: DataSourceSpec): Promise<DataSource>;
}

/** A failure of the operation itself (not of its arguments): bin/admin prints `error: <message>` and exits 1. */
export class CommandFailure extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CommandFailure';
  }
}
