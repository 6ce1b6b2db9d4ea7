import type { ApiKeyFlag } from '@pawlink/contracts';
import { ApiError, unavailableDependencyOf, type LogSink } from '@pawlink/service-kit';
import type { ApiKey } from '../db/entities/api-key.entity.js';
import type { ApiKeyRepository } from '../repositories/api-key.repository.js';
import { hashApiKey } from '../domain/secrets.rules.js';

/** The lookups the check needs; the repository, or an in-memory fake in specs. */
export type ApiKeyStore = Pick<ApiKeyRepository, 'findByKey' | 'touch'>;

/**
 * How many unknown keys the address of a request may still present (bucket `auth.invalid`):
 * `take` uses a slot (429 1000 once they are spent), `refund` gives one back. `C` is what tells
 * it the request (the guards pass their response).
 */
export interface InvalidKeyAllowance<C> {
  take(client: C): Promise<void>;
  refund(client: C): Promise<void>;
}

export interface KeyCheckOptions<C> {
  /** How long a looked-up key is trusted before asking the database again: a revoke or disable takes effect within it. */
  cacheTtlMs?: number;
  /**
   * How long a key that was valid keeps working while the database cannot be asked (an outage),
   * counted from its last successful lookup: the longest a key revoked just before an outage can
   * outlive its revocation. Past it, requests with the key get 503 1004 until the database is back.
   */
  staleTtlMs?: number;
  /** Without it, unknown keys are only answered 1010. */
  invalidKeys?: InvalidKeyAllowance<C>;
  logger?: LogSink;
  now?: () => number;
}

/** A key found in the database, and when. */
interface Trusted {
  key: ApiKey;
  checkedAt: number;
}

const KEY_SYNTAX = /^[\x21-\x7e]{1,200}$/;
/** A key's last use is written at most this often. */
const TOUCH_INTERVAL_MS = 60_000;
/** Keys remembered per kind; past it the least recently checked go first. */
const MAX_REMEMBERED = 10_000;
/** Any stored key, even an inactive or disabled one, is a real key: its slot is given back. */
const ANY_STORED_KEY = (): boolean => true;

/** What a shared lookup answers when its first request's address had no slot left, so it asked nothing. */
const NOT_ASKED = Symbol('not asked');

/** Sets `hash` as the most recently checked entry of `store`, forgetting the least recent one past MAX_REMEMBERED. */
function remember<V>(store: Map<string, V>, hash: string, value: V): void {
  store.delete(hash);
  if (store.size >= MAX_REMEMBERED) store.delete(store.keys().next().value as string);
  store.set(hash, value);
}

/**
 * The check of the API key a request presents; the guards only read the key and let the request
 * in (what operators do with keys is `ApiKeyAdminService`). Checked keys are remembered briefly
 * in process (keys are checked on every protected request); a disable or revoke takes effect
 * within `cacheTtlMs`. A key seen valid is trusted: it never counts against the invalid-key
 * allowance of its address (for `verify`: a key it would let in), and it keeps working through a
 * database outage of up to `staleTtlMs`.
 */
export class ApiKeyService<C = unknown> {
  private readonly freshMs: number;
  private readonly staleMs: number;
  private readonly now: () => number;
  /** Keys found, by hash. */
  private readonly valid = new Map<string, Trusted>();
  /** When each hash was last found in no row. */
  private readonly invalid = new Map<string, number>();
  private readonly lastTouched = new Map<number, number>();
  /** The database lookup of each hash under way, which concurrent first uses of the key share. */
  private readonly lookups = new Map<string, Promise<ApiKey | null | typeof NOT_ASKED>>();

  constructor(
    private readonly keys: ApiKeyStore,
    private readonly options: KeyCheckOptions<C> = {},
  ) {
    this.freshMs = options.cacheTtlMs ?? 2_000;
    this.staleMs = options.staleTtlMs ?? 10 * 60_000;
    this.now = options.now ?? Date.now;
  }

  /**
   * The key a request presents, if it may come in: 1013 when `required` and none is presented;
   * 1010 unknown, 1011 inactive, 1012 disabled (with its reason), 1022 without `flag`.
   * Undefined for an anonymous request that may pass.
   */
  async authenticate(
    presented: string | undefined,
    client: C,
    required: boolean,
    flag?: ApiKeyFlag,
  ): Promise<ApiKey | undefined> {
    if (presented === undefined) {
      if (required) throw new ApiError('API_KEY_REQUIRED');
      return undefined;
    }
    const found = this.find(presented, client, ANY_STORED_KEY);
    const key = found instanceof Promise ? await found : found;
    if (!key) throw new ApiError('INVALID_API_KEY');
    if (!key.active) throw new ApiError('INACTIVE_API_KEY');
    if (key.disabled)
      throw new ApiError('DISABLED_API_KEY', { extra: { reason: key.disabledReason ?? 'No reason was given.' } });
    if (flag && !key.flags.includes(flag)) throw new ApiError('MISSING_FLAG');
    this.touch(key);
    return key;
  }

  /**
   * `presented` when it is an active, enabled key with `flag`; any other key (unknown, inactive,
   * disabled, without the flag) gets the same 403 1022 and keeps its slot of the invalid-key
   * allowance, so the answers never tell an unknown key from a valid one without the flag.
   */
  async verify(presented: string, flag: ApiKeyFlag, client: C): Promise<ApiKey> {
    const accepts = (key: ApiKey): boolean => key.active && !key.disabled && key.flags.includes(flag);
    const found = this.find(presented, client, accepts);
    const key = found instanceof Promise ? await found : found;
    if (!key || !accepts(key)) throw new ApiError('MISSING_FLAG');
    this.touch(key);
    return key;
  }

  /**
   * The key stored for `presented` (null when none), remembered. `accepts` says which keys the
   * caller will let in: a key it would refuse is counted against the address's invalid-key
   * allowance like an unknown one, and only a key it accepts gives its slot back. A malformed key
   * is looked up nowhere but uses a slot all the same. A key found a moment ago and accepted comes
   * back as it is, not in a promise: the hot path waits on nothing.
   */
  private find(presented: string, client: C, accepts: (key: ApiKey) => boolean): ApiKey | Promise<ApiKey | null> {
    if (!KEY_SYNTAX.test(presented)) return this.takeSlot(client);
    const hash = hashApiKey(presented);
    const now = this.now();
    const trusted = this.valid.get(hash);
    if (trusted) {
      const age = now - trusted.checkedAt;
      if (age < this.freshMs && age < this.staleMs && accepts(trusted.key)) return trusted.key;
    }
    return this.lookup(presented, hash, now, client, accepts);
  }

  private async takeSlot(client: C): Promise<null> {
    await this.options.invalidKeys?.take(client);
    return null;
  }

  private async lookup(
    presented: string,
    hash: string,
    now: number,
    client: C,
    accepts: (key: ApiKey) => boolean,
  ): Promise<ApiKey | null> {
    const trusted = this.valid.get(hash);
    const age = trusted ? now - trusted.checkedAt : Infinity;
    if (trusted && age >= this.staleMs) this.valid.delete(hash);
    const known = trusted && age < this.staleMs ? trusted.key : null;
    const knownAccepted = known !== null && accepts(known);
    if (known && age < this.freshMs) {
      if (!knownAccepted) await this.options.invalidKeys?.take(client);
      return known;
    }
    // Requests that present this key while it is being looked up wait for that lookup: they take
    // no slot of their own unless the answer is a key they would refuse (as an unknown key does).
    const inFlight = this.lookups.get(hash);
    if (inFlight) {
      let answer: ApiKey | null | typeof NOT_ASKED;
      try {
        answer = await inFlight;
      } catch (error) {
        if (known && unavailableDependencyOf(error) === 'database') return known;
        throw error;
      }
      // The first request's address had no slot left: this one asks for itself.
      if (answer === NOT_ASKED) return this.lookup(presented, hash, now, client, accepts);
      if (!(answer && accepts(answer)) && !knownAccepted) await this.options.invalidKeys?.take(client);
      return answer;
    }
    let settle!: (answer: ApiKey | null | typeof NOT_ASKED) => void;
    let fail!: (error: unknown) => void;
    const asking = new Promise<ApiKey | null | typeof NOT_ASKED>((resolve, reject) => {
      settle = resolve;
      fail = reject;
    });
    // Nobody may be waiting: a failure is theirs to see, not an unhandled rejection.
    asking.catch(() => undefined);
    this.lookups.set(hash, asking);
    try {
      // A key this instance does not already trust (for this use) uses up the address's allowance
      // for unknown keys while it is looked up, and gives it back when the database has it.
      if (!knownAccepted) {
        try {
          await this.options.invalidKeys?.take(client);
        } catch (error) {
          settle(NOT_ASKED);
          throw error;
        }
      }
      const rejectedAt = this.invalid.get(hash);
      if (rejectedAt !== undefined && now - rejectedAt < this.freshMs) {
        settle(null);
        return null;
      }
      let found: ApiKey | null;
      try {
        found = await this.keys.findByKey(presented);
      } catch (error) {
        fail(error);
        // Through a database outage a key that was valid a moment ago keeps working.
        if (known && unavailableDependencyOf(error) === 'database') return known;
        throw error;
      }
      if (found) {
        this.invalid.delete(hash);
        remember(this.valid, hash, { key: found, checkedAt: now });
      } else {
        this.valid.delete(hash);
        remember(this.invalid, hash, now);
      }
      settle(found);
      if (found && accepts(found) && !knownAccepted) await this.options.invalidKeys?.refund(client);
      return found;
    } finally {
      this.lookups.delete(hash);
    }
  }

  /** Records the key's use, at most once a TOUCH_INTERVAL_MS, without the request waiting for it. */
  private touch(key: ApiKey): void {
    const now = this.now();
    if ((this.lastTouched.get(key.id) ?? 0) + TOUCH_INTERVAL_MS > now) return;
    this.lastTouched.set(key.id, now);
    this.keys.touch(key.id, new Date(now)).catch((error: unknown) => {
      // A database outage is reported once by its circuit, not once per request here.
      if (unavailableDependencyOf(error) === undefined)
        this.options.logger?.warn('could not record key use', { error });
    });
  }
}
