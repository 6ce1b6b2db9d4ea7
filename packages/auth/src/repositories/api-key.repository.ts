import type { ApiKeyFlag } from '@pawlink/contracts';
import { DEFAULT_BULK_LIMIT } from '@pawlink/contracts';
import { lagTolerantLookup } from '@pawlink/service-kit';
import type { DataSource, Repository } from 'typeorm';
import { ApiKeyEntity, type ApiKey } from '../db/entities/api-key.entity.js';
import { generateApiKey, hashApiKey } from '../domain/secrets.rules.js';

/** A key's webhook secrets as stored (sealed), the replaced one with the moment it stops signing. */
export interface SealedWebhookSecrets {
  current: string | null;
  previous: string | null;
  previousUntil: Date | null;
}

export interface NewApiKey {
  name: string;
  contact: string;
  flags: ApiKeyFlag[];
  bulkLimit?: number;
  rateLimitRoute?: number | null;
  rateLimitGlobal?: number | null;
}

/** Storage of API keys in `<DB_PREFIX>auth`. */
export class ApiKeyRepository {
  private readonly repo: Repository<ApiKey>;

  constructor(readonly dataSource: DataSource) {
    this.repo = dataSource.getRepository(ApiKeyEntity);
  }

  /** Stores a new key and returns it in clear — the only time it is ever seen. */
  async create(input: NewApiKey): Promise<{ key: string; record: ApiKey }> {
    const key = generateApiKey();
    const record = await this.repo.save({
      keyHash: hashApiKey(key),
      name: input.name,
      contact: input.contact,
      flags: [...new Set(input.flags)],
      active: true,
      disabled: false,
      disabledReason: null,
      bulkLimit: input.bulkLimit ?? DEFAULT_BULK_LIMIT,
      rateLimitRoute: input.rateLimitRoute ?? null,
      rateLimitGlobal: input.rateLimitGlobal ?? null,
      createdAt: new Date(),
      lastUsedAt: null,
      webhookSecretSealed: null,
    });
    return { key, record };
  }

  /** On the reader when there is one (a key's lookup is cached per process anyway); a miss is asked of the writer. */
  findByKey(key: string): Promise<ApiKey | null> {
    const keyHash = hashApiKey(key);
    return lagTolerantLookup(this.dataSource, (manager) => manager.getRepository(ApiKeyEntity).findOneBy({ keyHash }));
  }

  findById(id: number): Promise<ApiKey | null> {
    return this.repo.findOneBy({ id });
  }

  list(): Promise<ApiKey[]> {
    return this.repo.find({ order: { id: 'ASC' } });
  }

  /** Returns false when no key has that id. */
  async update(
    id: number,
    changes: Partial<Pick<ApiKey, 'active' | 'disabled' | 'disabledReason' | 'bulkLimit'>>,
  ): Promise<boolean> {
    const result = await this.repo.update({ id }, changes);
    return (result.affected ?? 0) > 0;
  }

  /**
   * Stores the sealed webhook secret of key `id`. The one it replaces is dropped, or, with
   * `keepPreviousUntil`, kept (sealed as it was) to sign beside it until then; a previous one kept
   * by an earlier rotation is dropped either way. False when no key has that id.
   */
  async setWebhookSecretSealed(id: number, sealed: string, keepPreviousUntil: Date | null = null): Promise<boolean> {
    // One statement: MySQL and MariaDB assign a single-table UPDATE's columns left to right, so the
    // previous column takes the current value before it is replaced.
    const result: { affectedRows?: number } = await this.repo.query(
      `UPDATE api_keys SET
         webhook_secret_previous_sealed = IF(? IS NULL, NULL, webhook_secret_sealed),
         webhook_secret_previous_until = IF(? IS NULL OR webhook_secret_sealed IS NULL, NULL, ?),
         webhook_secret_sealed = ?
       WHERE id = ?`,
      [keepPreviousUntil, keepPreviousUntil, keepPreviousUntil, sealed, id],
    );
    return (result.affectedRows ?? 0) > 0;
  }

  /** The sealed webhook secrets of key `id` (undefined: no such key; `current` null: none made yet). */
  async webhookSecretsSealedOf(id: number): Promise<SealedWebhookSecrets | undefined> {
    // The columns are left out of every other read (select: false).
    const row = await this.repo
      .createQueryBuilder('key')
      .select('key.id')
      .addSelect(['key.webhookSecretSealed', 'key.webhookSecretPreviousSealed', 'key.webhookSecretPreviousUntil'])
      .where('key.id = :id', { id })
      .getOne();
    if (!row) return undefined;
    return {
      current: row.webhookSecretSealed ?? null,
      previous: row.webhookSecretPreviousSealed ?? null,
      previousUntil: row.webhookSecretPreviousUntil ?? null,
    };
  }

  async touch(id: number, at: Date): Promise<void> {
    await this.repo.update({ id }, { lastUsedAt: at });
  }
}
