import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { serveForTest } from './http.js';

/** One POST a callback receiver got. */
export interface ReceivedCallback {
  path: string;
  body: string;
  contentType: string | undefined;
  /** `X-Pawlink-Signature` as sent. */
  signature: string | undefined;
  /** Every header as received (names in lower case), for verifiers that take them whole (Standard Webhooks). */
  headers: Record<string, string>;
  /** Unix ms when the request had arrived whole. */
  receivedAt: number;
}

/** What the receiver answers a call with: a status, or `hang` (never answer; the connection is held until close). */
export type ReceiverAnswer = number | 'hang';

/** A completion-callback receiver on loopback, as a bot would run one. */
export interface CallbackReceiver {
  /** `127.0.0.1:<port>`, for THUMBS_CALLBACK_PRIVATE_HOSTS. */
  host: string;
  url(path?: string): string;
  calls: ReceivedCallback[];
  /** Decides each call's answer from the calls so far to that path (1 for the first), awaited before answering; default 200. */
  answerWith(answer: (path: string, callNumber: number) => ReceiverAnswer | Promise<ReceiverAnswer>): void;
  /** Resolves with the calls to `path` once there are `count` of them; rejects after `timeoutMs`. */
  waitForCalls(path: string, count: number, timeoutMs?: number): Promise<ReceivedCallback[]>;
  close(): Promise<void>;
}

export async function startCallbackReceiver(): Promise<CallbackReceiver> {
  const calls: ReceivedCallback[] = [];
  const held: ServerResponse[] = [];
  let answer: (path: string, callNumber: number) => ReceiverAnswer | Promise<ReceiverAnswer> = () => 200;
  const server = await serveForTest((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      const signature = req.headers['x-pawlink-signature'];
      calls.push({
        path,
        body: Buffer.concat(chunks).toString('utf8'),
        contentType: req.headers['content-type'],
        signature: Array.isArray(signature) ? signature.join(',') : signature,
        headers: Object.fromEntries(
          Object.entries(req.headers).map(([name, value]) => [
            name,
            Array.isArray(value) ? value.join(', ') : (value ?? ''),
          ]),
        ),
        receivedAt: Date.now(),
      });
      void Promise.resolve(answer(path, calls.filter((call) => call.path === path).length)).then((reply) => {
        if (reply === 'hang') held.push(res);
        else res.writeHead(reply, { 'content-type': 'text/plain' }).end('ok');
      });
    });
  });
  return {
    host: `127.0.0.1:${server.port}`,
    url: (path = '/hook') => `${server.url}${path}`,
    calls,
    answerWith(next) {
      answer = next;
    },
    async waitForCalls(path, count, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const seen = calls.filter((call) => call.path === path);
        if (seen.length >= count) return seen;
        if (Date.now() > deadline)
          throw new Error(`${seen.length} of ${count} callbacks to ${path} after ${timeoutMs} ms`);
        await sleep(25);
      }
    },
    async close() {
      for (const res of held) res.destroy();
      await server.close();
    },
  };
}

/**
 * Checks a callback's `X-Pawlink-Signature` the way docs/api.md tells receivers to: `v1` is the
 * HMAC-SHA256 of `<t>.<body>` with `secret`. Answers the signature's `t` when it matches, else null.
 */
export function verifyCallbackSignature(call: ReceivedCallback, secret: string): number | null {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(call.signature ?? '');
  if (!match) return null;
  const expected = createHmac('sha256', secret).update(`${match[1]}.${call.body}`, 'utf8').digest();
  const given = Buffer.from(match[2]!, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected) ? Number(match[1]) : null;
}
