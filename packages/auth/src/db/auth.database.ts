import type { DataSourceSpec } from '@pawlink/service-kit';
import { ApiKeyEntity } from './entities/api-key.entity.js';
import { CreateApiKeys1763780000000 } from './migrations/1763780000000-create-api-keys.js';
import { CreateApiKeyUsage1764000000000 } from './migrations/1764000000000-create-api-key-usage.js';
import { AddApiKeyWebhookSecret1766000000000 } from './migrations/1766000000000-add-api-key-webhook-secret.js';
import { AddApiKeyPreviousWebhookSecret1767000000000 } from './migrations/1767000000000-add-api-key-previous-webhook-secret.js';

/** The `<DB_PREFIX>auth` schema: API keys and their usage, shared by every service. */
export const authDatabase: DataSourceSpec = {
  name: 'auth',
  entities: [ApiKeyEntity],
  migrations: [
    CreateApiKeys1763780000000,
    CreateApiKeyUsage1764000000000,
    AddApiKeyWebhookSecret1766000000000,
    AddApiKeyPreviousWebhookSecret1767000000000,
  ],
};
