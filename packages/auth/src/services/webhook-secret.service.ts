import type { ApiKeyRepository } from '../repositories/api-key.repository.js';
import { generateWebhookSecret, openSealedSecret, sealSecret } from '../domain/secrets.rules.js';

export type WebhookSecretStore = Pick<ApiKeyRepository, 'setWebhookSecretSealed' | 'webhookSecretsSealedOf'>;

/** Without PAWLINK_SECRETS_KEY no webhook secret can be sealed or opened. */
export class SecretsKeyMissingError extends Error {
  constructor() {
    super(
      'PAWLINK_SECRETS_KEY is not set: webhook secrets are sealed with it (64 hex digits; scripts/start.sh keeps one per data directory).',
    );
    this.name = 'SecretsKeyMissingError';
  }
}

/** The secrets a delivery is signed with right now: the current one, and the one a rotation kept for a while. */
export interface SigningSecrets {
  current: string;
  /** Empty unless a rotation kept the previous secret and its time has not passed. */
  previous: string[];
}

/** Longest a rotation may keep the previous secret signing (`--keep-previous-hours`): a week. */
export const MAX_KEEP_PREVIOUS_MS = 7 * 86_400_000;

/**
 * Each API key's webhook secret, which signs its completion callbacks: made and rotated by
 * operators (`bin/admin apikey webhook-secret`), read at each delivery attempt. Stored sealed
 * with `secretsKey` (PAWLINK_SECRETS_KEY), so the database alone does not reveal it.
 */
export class WebhookSecretService {
  constructor(private readonly deps: { keys: WebhookSecretStore; secretsKey: Buffer | null; clock?: () => number }) {}

  /**
   * A new secret for key `id`; null when there is no such key. The only time it is seen in clear.
   * The old one signs nothing from now on, unless `keepPreviousMs` keeps it signing
   * `webhook-signature` beside the new one for that long (one previous secret at a time).
   */
  async rotate(id: number, options: { keepPreviousMs?: number } = {}): Promise<string | null> {
    const secretsKey = this.requireKey();
    const keep = options.keepPreviousMs ?? 0;
    if (!Number.isInteger(keep) || keep < 0 || keep > MAX_KEEP_PREVIOUS_MS)
      throw new RangeError(`keepPreviousMs must be a whole number from 0 to ${MAX_KEEP_PREVIOUS_MS}`);
    const secret = generateWebhookSecret();
    const until = keep > 0 ? new Date(this.now() + keep) : null;
    return (await this.deps.keys.setWebhookSecretSealed(id, sealSecret(secret, secretsKey, id), until)) ? secret : null;
  }

  /** The secret key `id` signs with now; null when it has none (or no such key, or it was sealed under another PAWLINK_SECRETS_KEY). */
  async current(id: number): Promise<string | null> {
    return (await this.signing(id))?.current ?? null;
  }

  /** What a delivery for key `id` is signed with at this moment; null as for `current`. */
  async signing(id: number): Promise<SigningSecrets | null> {
    const secretsKey = this.requireKey();
    const sealed = await this.deps.keys.webhookSecretsSealedOf(id);
    const current = sealed?.current ? openSealedSecret(sealed.current, secretsKey, id) : null;
    if (!sealed || current === null) return null;
    const kept =
      sealed.previous !== null && sealed.previousUntil !== null && sealed.previousUntil.getTime() > this.now()
        ? openSealedSecret(sealed.previous, secretsKey, id)
        : null;
    return { current, previous: kept === null ? [] : [kept] };
  }

  private now(): number {
    return (this.deps.clock ?? Date.now)();
  }

  private requireKey(): Buffer {
    if (!this.deps.secretsKey) throw new SecretsKeyMissingError();
    return this.deps.secretsKey;
  }
}
