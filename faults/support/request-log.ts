import type { ServiceName } from '@pawlink/test-kit';
import type { HttpClient, HttpRequest } from './http-client.js';

/** The kinds of request the load makes, each with its own documented answers. */
export type EndpointKind = 'create' | 'redirect' | 'random-keyed' | 'random-anonymous' | 'thumb-put' | 'thumb-check';

export const ENDPOINT_KINDS: readonly EndpointKind[] = [
  'create',
  'redirect',
  'random-keyed',
  'random-anonymous',
  'thumb-put',
  'thumb-check',
];

export const SERVICE_OF: Record<EndpointKind, ServiceName> = {
  create: 'shortener',
  redirect: 'shortener',
  'random-keyed': 'images',
  'random-anonymous': 'images',
  'thumb-put': 'thumbs',
  'thumb-check': 'thumbs',
};

/** Every request is answered within this or counts as unanswered (issue 12: "generous bounds are behaviour"). */
export const REQUEST_TIMEOUT_MS = 3000;

/** Why a request got no HTTP answer. */
export type NetworkFailure = 'timeout' | 'refused' | 'reset' | 'network';

export interface RequestRecord {
  kind: EndpointKind;
  /** Who sent it: a load client, a recovery probe, or the final checks. */
  origin: 'load' | 'probe' | 'final';
  /** Unix ms: sent, and answered in full (or given up). */
  startedAt: number;
  endedAt: number;
  latencyMs: number;
  /** null when there was no HTTP answer; then `failure` says why. */
  status: number | null;
  failure?: NetworkFailure;
  error?: string;
  /** `code` of a JSON failure body. */
  code?: number;
  hasRetryAfter: boolean;
  /** An acknowledged create (201/200): the code and the url the service stored. */
  created?: { code: string; url: string };
  /** A redirect of a code this shortener process had already redirected (its in-process cache holds it). */
  warm?: boolean;
  /** A success status whose content is wrong (another Location, no images, ...). */
  wrong?: string;
}

export interface Answer {
  record: RequestRecord;
  /** Parsed JSON body, when the answer had one. */
  body: any;
  /** The Location header, when there was one. */
  location?: string;
}

function classify(error: unknown): { failure: NetworkFailure; message: string } {
  const err = error as { name?: string; message?: string; code?: string; cause?: { code?: string; message?: string } };
  const message = `${err.message ?? String(error)}${err.cause?.message ? ` (${err.cause.message})` : ''}`;
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return { failure: 'timeout', message };
  const code = err.cause?.code ?? err.code;
  if (code === 'ECONNREFUSED') return { failure: 'refused', message };
  if (code === 'ECONNRESET' || code === 'EPIPE') return { failure: 'reset', message };
  return { failure: 'network', message };
}

/** Sends requests with the 3 s client timeout and keeps a record of every one. */
export class RequestLog {
  readonly records: RequestRecord[] = [];

  /** One request by `client`, answered in full (body read) within REQUEST_TIMEOUT_MS or recorded as unanswered. */
  async send(
    kind: EndpointKind,
    origin: RequestRecord['origin'],
    client: HttpClient,
    url: string,
    request: Omit<HttpRequest, 'timeoutMs'> = {},
  ): Promise<Answer> {
    const startedAt = Date.now();
    const began = performance.now();
    const record: RequestRecord = {
      kind,
      origin,
      startedAt,
      endedAt: startedAt,
      latencyMs: 0,
      status: null,
      hasRetryAfter: false,
    };
    this.records.push(record);
    let body: unknown;
    let location: string | undefined;
    try {
      const { status, headers, text } = await client.request(url, { ...request, timeoutMs: REQUEST_TIMEOUT_MS });
      record.status = status;
      record.hasRetryAfter = headers['retry-after'] !== undefined;
      location = headers.location;
      if ((headers['content-type'] ?? '').includes('json') && text !== '') {
        try {
          body = JSON.parse(text);
        } catch {
          record.wrong = 'unparsable JSON body';
        }
      }
      const code = (body as { code?: unknown } | undefined)?.code;
      if (typeof code === 'number') record.code = code;
    } catch (error) {
      const { failure, message } = classify(error);
      record.status = null;
      record.failure = failure;
      record.error = message;
    }
    record.latencyMs = Math.round(performance.now() - began);
    record.endedAt = Date.now();
    return { record, body, location };
  }
}
