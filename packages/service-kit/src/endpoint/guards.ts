import type { ApiKeyFlag } from '@pawlink/contracts';
import type { Access } from '@pawlink/contracts/openapi';
import type { Request, RequestHandler } from 'express';
import { requireParsedBody, requireWritable } from '../create-service-app.js';
import type { ReadOnlySwitch } from '../read-only.js';

/** What a guard adds to its operation's document: the codes and headers `operation()` implies from these. */
export interface GuardDoc {
  access?: Access;
  rateLimit?: string;
  readOnlyAffected?: true;
  readsBody?: true;
}

/**
 * A step before the handler (docs/adr/0008: key → rate limit → read-only → body → validation →
 * handler): its middleware, made once from the app's dependencies when the endpoint is mounted,
 * and what it means for the document.
 */
export interface Guard<D> {
  readonly doc: GuardDoc;
  readonly use: (deps: D) => RequestHandler;
}

/** Where the fields are checked, when a guard must come after them (a rate limit weighed by the body). */
export const VALIDATION = 'validation';
export type Step<D> = Guard<D> | typeof VALIDATION;

/** The key and rate-limit guards an app gets from `@pawlink/auth`'s createAccessGuards (structurally). */
export interface KeyGuards<B extends string = string> {
  readonly requireKey: (flag?: ApiKeyFlag) => RequestHandler;
  readonly optionalKey: () => RequestHandler;
  readonly rateLimit: (bucket: B, options?: { units: (req: Request) => number }) => RequestHandler;
}

/** A key with `flag`: 1013 without one, 1010/1011/1012 for a bad one, 1022 without the flag. */
export const requireKey = (flag: ApiKeyFlag): Guard<{ guards: Pick<KeyGuards, 'requireKey'> }> => ({
  doc: { access: { key: flag } },
  use: ({ guards }) => guards.requireKey(flag),
});

/** No key needed; a presented key must be valid (401 1010/1011/1012) and is what is rate limited. */
export const optionalKey = (): Guard<{ guards: Pick<KeyGuards, 'optionalKey'> }> => ({
  doc: { access: 'optional-key' },
  use: ({ guards }) => guards.optionalKey(),
});

/** The bucket's limit and the global window (429 1000/1001); `units` weighs a request by its validated body. */
export const rateLimit = <B extends string>(
  bucket: B,
  options?: { units: (req: Request) => number },
): Guard<{ guards: Pick<KeyGuards<B>, 'rateLimit'> }> => ({
  doc: { rateLimit: bucket },
  use: ({ guards }) => guards.rateLimit(bucket, options),
});

/** Refused while the service is read-only (503 1003). */
export const writable = (): Guard<{ readOnly: ReadOnlySwitch }> => ({
  doc: { readOnlyAffected: true },
  use: ({ readOnly }) => requireWritable(readOnly),
});

/** A body that was read and parsed (415 1014, 400 1026, 413 1027 otherwise). */
export const parsedBody = (): Guard<unknown> => ({ doc: { readsBody: true }, use: () => requireParsedBody });
