import type { PasswordTriesRepository } from '../repositories/password-tries.repository.js';
import type { ShortUrlRepository } from '../repositories/short-url.repository.js';
import { expiryOf } from '../domain/expiry.rules.js';
import { verifyLinkPassword } from '../domain/link-password.rules.js';
import { expiredLinkOf, fullUrlOf, linkOf } from '../domain/short-url-record.rules.js';
import {
  UNKNOWN,
  type RedirectShortUrlService,
  type RuleFacts,
  type VisitOutcome,
  type VisitSource,
} from './redirect-short-url.service.js';

/** The answer to a password sent by the form (`POST /:code`). */
export type UnlockOutcome =
  | VisitOutcome
  | { kind: 'wrong-password'; code: string; fullURL: string }
  | { kind: 'too-many-tries'; code: string; fullURL: string; retryAfterSeconds: number };

export interface UnlockShortUrlDeps {
  repository: Pick<ShortUrlRepository, 'findByCode'>;
  /** Wrong passwords per address and link. */
  passwordTries: Pick<PasswordTriesRepository, 'state' | 'wrong'>;
  /** The visit itself, as `GET /:code` makes it. */
  redirects: Pick<RedirectShortUrlService, 'visitRead'>;
  /** SHORTENER_URL: `fullURL` is built from it, never from the request. */
  baseUrl: string;
  clock: () => Date;
}

/** POST /:code (docs/api.md): the password form of a protected link. */
export class UnlockShortUrlService {
  constructor(private readonly deps: UnlockShortUrlDeps) {}

  /**
   * While the address has tries left on the link, the right password is the visit (counted then,
   * `maxVisits` admitted then) and a wrong one (or none) a try used; a link that asks for no
   * password is visited as by `GET`. Always read from MySQL: a password added a moment ago counts.
   */
  async unlock(
    code: string,
    password: string | null,
    counted: boolean,
    source: VisitSource & Partial<RuleFacts> & { address: string },
  ): Promise<UnlockOutcome> {
    const fullURL = fullUrlOf(this.deps.baseUrl, code);
    const before = await this.deps.passwordTries.state(code, source.address);
    if (before.retryAfterSeconds !== null)
      return { kind: 'too-many-tries', code, fullURL, retryAfterSeconds: before.retryAfterSeconds };
    const entry = await this.deps.repository.findByCode(code);
    if (!entry) return UNKNOWN;
    const expired = expiryOf(entry, this.deps.clock());
    if (expired) return { kind: 'expired', expired: expiredLinkOf(entry, expired, this.deps.baseUrl) };
    if (entry.passwordHash === null) return this.deps.redirects.visitRead(code, linkOf(entry), counted, source, false);
    if (password === null || !(await verifyLinkPassword(password, entry.passwordHash))) {
      const after = await this.deps.passwordTries.wrong(code, source.address);
      return after.retryAfterSeconds === null
        ? { kind: 'wrong-password', code, fullURL }
        : { kind: 'too-many-tries', code, fullURL, retryAfterSeconds: after.retryAfterSeconds };
    }
    return this.deps.redirects.visitRead(code, linkOf(entry), counted, source, true);
  }
}
