import type { BaseConfig, DataSourceSpec } from '@pawlink/service-kit';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';

/** The part of bin/admin's AdminContext these commands use (structural, so admin can pass its own). */
export interface ImagesCliContext {
  readonly config: BaseConfig;
  readonly redis: Redis;
  dataSource(spec: DataSourceSpec): Promise<DataSource>;
}

/** A failure of the operation (exit 1); bin/admin prints `error: <message>`. */
export class ImagesCommandFailure extends Error {
  readonly exitCode = 1;
  constructor(message: string) {
    super(message);
    this.name = 'CommandFailure';
  }
}
