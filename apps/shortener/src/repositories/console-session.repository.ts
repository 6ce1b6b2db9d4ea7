import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { RedisClient } from '@pawlink/service-kit/redis';

/** How long a console sign-in lasts, whatever the browser does with its session cookie. */
export const CONSOLE_SESSION_TTL_SECONDS = 8 * 3600;

/** What `open` hands the browser: the opaque id for its cookie, and when the session ends. */
export interface ConsoleSession {
  id: string;
  expiresAt: Date;
}

const ID_BYTES = 32;
const ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Console sign-ins in Redis (docs/console.md): the browser holds only a random id (an HttpOnly
 * cookie); Redis holds the API key under the id's hash, sealed (AES-256-GCM) with a key derived
 * from the id, so neither a copy of Redis nor the cookie alone gives the API key away. Each entry
 * lives `CONSOLE_SESSION_TTL_SECONDS`; signing out deletes it.
 */
export class ConsoleSessionRepository {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly ttlSeconds = CONSOLE_SESSION_TTL_SECONDS,
  ) {}

  private entry(id: string): string {
    return `${this.prefix}console:session:${createHash('sha256').update(`name\0${id}`).digest('hex')}`;
  }

  private static sealingKey(id: string): Buffer {
    return createHash('sha256').update(`seal\0${id}`).digest();
  }

  /** A new session for `apiKey`. */
  async open(apiKey: string): Promise<ConsoleSession> {
    const id = randomBytes(ID_BYTES).toString('base64url');
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', ConsoleSessionRepository.sealingKey(id), iv);
    const sealed = Buffer.concat([cipher.update(apiKey, 'utf8'), cipher.final()]);
    const value = Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
    await this.redis.set(this.entry(id), value, 'EX', this.ttlSeconds);
    return { id, expiresAt: new Date(Date.now() + this.ttlSeconds * 1000) };
  }

  /** The API key of session `id`, or undefined when it is unknown, ended or not an id at all. */
  async keyOf(id: string): Promise<string | undefined> {
    if (!ID_PATTERN.test(id)) return undefined;
    const value = await this.redis.get(this.entry(id));
    if (value === null) return undefined;
    try {
      const bytes = Buffer.from(value, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', ConsoleSessionRepository.sealingKey(id), bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }

  /** Ends session `id` (nothing when it is unknown). */
  async close(id: string): Promise<void> {
    if (ID_PATTERN.test(id)) await this.redis.del(this.entry(id));
  }
}
