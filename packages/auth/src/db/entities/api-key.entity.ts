import type { ApiKeyFlag } from '@pawlink/contracts';
import { EntitySchema } from 'typeorm';

export interface ApiKey {
  id: number;
  /** SHA-256 of the key; the key itself is never stored. */
  keyHash: string;
  name: string;
  contact: string;
  flags: ApiKeyFlag[];
  active: boolean;
  disabled: boolean;
  disabledReason: string | null;
  bulkLimit: number;
  /** Per-window maxima replacing the defaults for this key; 0 means unlimited, null the default. */
  rateLimitRoute: number | null;
  rateLimitGlobal: number | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  /**
   * The webhook secret sealed with PAWLINK_SECRETS_KEY (`sealSecret`); null until one is made.
   * Not read with the key (select: false): only `webhookSecretsSealedOf` reads it.
   */
  webhookSecretSealed?: string | null;
  /** The secret a rotation replaced, sealed; it signs beside the current one until `webhookSecretPreviousUntil`. Not read with the key. */
  webhookSecretPreviousSealed?: string | null;
  webhookSecretPreviousUntil?: Date | null;
}

export const ApiKeyEntity = new EntitySchema<ApiKey>({
  name: 'ApiKey',
  tableName: 'api_keys',
  columns: {
    id: { type: 'int', primary: true, generated: 'increment', unsigned: true },
    keyHash: { name: 'key_hash', type: 'char', length: 64 },
    name: { type: 'varchar', length: 100 },
    contact: { type: 'varchar', length: 255 },
    flags: { type: 'simple-array' },
    active: { type: 'boolean', default: true },
    disabled: { type: 'boolean', default: false },
    disabledReason: { name: 'disabled_reason', type: 'varchar', length: 500, nullable: true },
    bulkLimit: { name: 'bulk_limit', type: 'int', unsigned: true, default: 100 },
    rateLimitRoute: { name: 'rate_limit_route', type: 'int', unsigned: true, nullable: true },
    rateLimitGlobal: { name: 'rate_limit_global', type: 'int', unsigned: true, nullable: true },
    createdAt: { name: 'created_at', type: 'datetime', precision: 3 },
    lastUsedAt: { name: 'last_used_at', type: 'datetime', precision: 3, nullable: true },
    webhookSecretSealed: { name: 'webhook_secret_sealed', type: 'varchar', length: 255, nullable: true, select: false },
    webhookSecretPreviousSealed: {
      name: 'webhook_secret_previous_sealed',
      type: 'varchar',
      length: 255,
      nullable: true,
      select: false,
    },
    webhookSecretPreviousUntil: {
      name: 'webhook_secret_previous_until',
      type: 'datetime',
      precision: 3,
      nullable: true,
      select: false,
    },
  },
  indices: [{ name: 'uq_api_keys_key_hash', columns: ['keyHash'], unique: true }],
});
