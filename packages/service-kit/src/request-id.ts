import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Ids numbered under one prefix: the counter stays a small integer, whose hex is quick to write. */
const IDS_PER_PREFIX = 2 ** 30;
/** Hex digits of the counter in an id (2^30 − 1 is 3fffffff). */
const COUNTER_DIGITS = 8;
/** Leading zeros by how many digits the counter's hex lacks. */
const ZEROS: readonly string[] = Array.from({ length: COUNTER_DIGITS + 1 }, (_, n) => '0'.repeat(n));

/** A version-4 UUID's first 28 characters (its variant included), drawn once per prefix. */
const randomPrefix = (): string => randomUUID().slice(0, 36 - COUNTER_DIGITS);

let prefix = randomPrefix();
let counter = 0;

/**
 * A new request id, shaped as a version-4 UUID: its first 90 random bits are drawn once per 2^30
 * ids and its last 32 bits count the ids made. Unique within a process by the counter, across
 * processes by the random part. A `randomUUID()` per request (what this was) left about 600 bytes
 * of garbage each; this leaves the id string (docs/adr/0011, issue 37).
 */
export function newRequestId(): string {
  if (counter === IDS_PER_PREFIX) {
    prefix = randomPrefix();
    counter = 0;
  }
  const hex = counter.toString(16);
  counter += 1;
  return prefix + ZEROS[COUNTER_DIGITS - hex.length]! + hex;
}

/** The request's id: a sane incoming `X-Request-Id`, else a new one; the caller sends it. */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : newRequestId();
}

/** Honours a sane incoming `X-Request-Id`, else makes one; always echoes it on the response. */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const id = requestIdOf(req);
  res.setHeader('X-Request-Id', id);
  return id;
}

const requestContext = new AsyncLocalStorage<{ requestId: string; startedAt: number }>();

/** Runs `fn` (and everything it starts, awaited or not) as part of the request `requestId`, begun now. */
export function runWithRequestId<T>(requestId: string, fn: () => T): T {
  return requestContext.run({ requestId, startedAt: Date.now() }, fn);
}

/** The id of the request the current code runs for; undefined outside a request. */
export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}

/** When the request the current code runs for began (`Date.now()`); undefined outside a request. */
export function currentRequestStartedAt(): number | undefined {
  return requestContext.getStore()?.startedAt;
}
