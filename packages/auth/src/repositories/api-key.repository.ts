import type { ApiKeyFlag } from '@pawlink/contracts';
import { DEFAULT_BULK_LIMIT } from '@pawlink/contracts';
import type { DataSource, Repository } from 'typeorm';
import { ApiKeyEntity, type ApiKey } from '../db/entities/api-key.entity.js';
import { generateApiKey, hashApiKey } from '../services/secrets.rules.js';

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

  findByKey(key: string): Promise<ApiKey | null> {
    return this.repo.findOneBy({ keyHash: hashApiKey(key) });
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

  /** Stores the sealed webhook secret of key `id`, replacing the old one. False when no key has that id. */
  async setWebhookSecretSealed(id: number, sealed: string): Promise<boolean> {
    const result = await this.repo.update({ id }, { webhookSecretSealed: sealed });
    return (result.affected ?? 0) > 0;
  }

  /** The sealed webhook secret of key `id` (undefined: no such key; null: none made yet). */
  async webhookSecretSealedOf(id: number): Promise<string | null | undefined> {
    // The column is left out of every other read (select: false).
    const row = await this.repo
      .createQueryBuilder('key')
      .select('key.id')
      .addSelect('key.webhookSecretSealed')
      .where('key.id = :id', { id })
      .getOne();
    return row ? (row.webhookSecretSealed ?? null) : undefined;
  }

  async touch(id: number, at: Date): Promise<void> {
    await this.repo.update({ id }, { lastUsedAt: at });
  }
}
