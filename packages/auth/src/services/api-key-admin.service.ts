import type { ApiKeyFlag } from '@pawlink/contracts';
import type { ApiKey } from '../db/entities/api-key.entity.js';
import type { ApiKeyRepository, NewApiKey } from '../repositories/api-key.repository.js';

/** The storage the service needs; the repository, or an in-memory fake in specs. */
export type ApiKeyAdminStore = Pick<ApiKeyRepository, 'create' | 'list' | 'update'>;

export interface CreateApiKeyInput {
  name: string;
  contact: string;
  /** None makes a key that only identifies its holder (anonymous access, its own rate limits). */
  flags?: ApiKeyFlag[];
  /** Images per bulk request; the contract's default (100) when absent. */
  bulkLimit?: number;
  /** 0 means unlimited; absent keeps the policy's default. */
  rateLimitRoute?: number;
  rateLimitGlobal?: number;
}

/** What operators do with API keys (`bin/admin apikey …`); the check requests go through is `ApiKeyService`. */
export class ApiKeyAdminService {
  constructor(private readonly keys: ApiKeyAdminStore) {}

  /** Creates a key; the returned `key` is the only time it is ever seen in clear. */
  create(input: CreateApiKeyInput): Promise<{ key: string; record: ApiKey }> {
    const key: NewApiKey = { ...input, flags: input.flags ?? [] };
    return this.keys.create(key);
  }

  list(): Promise<ApiKey[]> {
    return this.keys.list();
  }

  /** Requests with the key get 403 1012 with `reason`. False when no key has that id. */
  disable(id: number, reason: string): Promise<boolean> {
    return this.keys.update(id, { disabled: true, disabledReason: reason });
  }

  enable(id: number): Promise<boolean> {
    return this.keys.update(id, { disabled: false, disabledReason: null });
  }

  /** Permanently inactive (401 1011); the row stays for the record. */
  revoke(id: number): Promise<boolean> {
    return this.keys.update(id, { active: false });
  }
}
