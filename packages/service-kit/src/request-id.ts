import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Honours a sane incoming `X-Request-Id`, else makes one; always echoes it on the response. */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
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
