import type { ApiKeyRepository } from '../repositories/api-key.repository.js';
import { generateWebhookSecret, openSealedSecret, sealSecret } from './secrets.rules.js';

export type WebhookSecretStore = Pick<ApiKeyRepository, 'setWebhookSecretSealed' | 'webhookSecretSealedOf'>;

/** Without PAWLINK_SECRETS_KEY no webhook secret can be sealed or opened. */
export class SecretsKeyMissingError extends Error {
  constructor() {
    super(
      'PAWLINK_SECRETS_KEY is not set: webhook secrets are sealed with it (64 hex digits; scripts/start.sh keeps one per data directory).',
    );
    this.name = 'SecretsKeyMissingError';
  }
}

/**
 * Each API key's webhook secret, which signs its completion callbacks: made and rotated by
 * operators (`bin/admin apikey webhook-secret`), read at each delivery attempt. Stored sealed
 * with `secretsKey` (PAWLINK_SECRETS_KEY), so the database alone does not reveal it.
 */
export class WebhookSecretService {
  constructor(private readonly deps: { keys: WebhookSecretStore; secretsKey: Buffer | null }) {}

  /** A new secret for key `id`, the old one no longer used; null when there is no such key. The only time it is seen in clear. */
  async rotate(id: number): Promise<string | null> {
    const secretsKey = this.requireKey();
    const secret = generateWebhookSecret();
    return (await this.deps.keys.setWebhookSecretSealed(id, sealSecret(secret, secretsKey, id))) ? secret : null;
  }

  /** The secret key `id` signs with now; null when it has none (or no such key, or it was sealed under another PAWLINK_SECRETS_KEY). */
  async current(id: number): Promise<string | null> {
    const secretsKey = this.requireKey();
    const sealed = await this.deps.keys.webhookSecretSealedOf(id);
    return sealed ? openSealedSecret(sealed, secretsKey, id) : null;
  }

  private requireKey(): Buffer {
    if (!this.deps.secretsKey) throw new SecretsKeyMissingError();
    return this.deps.secretsKey;
  }
}
