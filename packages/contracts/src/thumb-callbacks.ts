import { MD5_LOWER_DIGITS, md5Schema } from './md5.js';
import * as s from './schema.js';
import type { Static } from './schema.js';
import { THUMBNAIL_TYPES } from './thumbs.js';

/** Completion callbacks (docs/api.md, "Completion callbacks"): `PUT /:id/:type?callbackURL=`. */

/** Longest callbackURL accepted (422 1085 beyond). */
export const CALLBACK_URL_MAX_LENGTH = 2048;

/** The BullMQ queue of deliveries, next to the thumbnail queue (same `thumbnailQueuePrefix`). */
export const THUMBNAIL_CALLBACK_QUEUE = 'thumbnail-callbacks';
/** The one job name on that queue. */
export const THUMBNAIL_CALLBACK_JOB = 'deliver-callback';

export const THUMBNAIL_CALLBACK_EVENTS = ['thumbnail.done', 'thumbnail.failed', 'thumbnail.timeout'] as const;
export type ThumbnailCallbackEventName = (typeof THUMBNAIL_CALLBACK_EVENTS)[number];

/** The JSON body POSTed to a callback URL (docs/api.md, "Completion callbacks"). */
export const ThumbnailCallbackEventSchema = s.object({
  event: s.oneOfValues(THUMBNAIL_CALLBACK_EVENTS),
  md5: md5Schema(),
  type: s.oneOfValues(THUMBNAIL_TYPES),
  /** The thumbnail's URL for `thumbnail.done`, else null. */
  url: s.nullable(
    s.string({ format: 'uri', description: 'MEDIA_URL/<md5>.<type> for thumbnail.done; null otherwise.' }),
  ),
  /** As `GET /check` reports the failure (1060, 1065, 1068); null for done. */
  code: s.nullable(
    s.integer({ description: 'As GET /check answers the failure: 1060, 1065 or 1068; null for thumbnail.done.' }),
  ),
  error: s.nullable(
    s.string({ description: "The failure's message as GET /check answers it; null for thumbnail.done." }),
  ),
  /** Unix ms when the job ended. */
  at: s.integer({ description: 'Unix ms when the job ended.' }),
});
export type ThumbnailCallbackEvent = Static<typeof ThumbnailCallbackEventSchema>;

/**
 * The legacy header (kept beside the Standard Webhooks ones): `t=<unix seconds>,v1=<hex
 * HMAC-SHA256 of "<t>.<body>">`, keyed with the webhook secret's text as written.
 */
export const CALLBACK_SIGNATURE_HEADER = 'X-Pawlink-Signature';

/**
 * The Standard Webhooks headers (standardwebhooks.com) every delivery carries: the event's id (the
 * same on every attempt), the attempt's unix seconds, and `v1,<base64 HMAC-SHA256 of
 * "<id>.<timestamp>.<body>">` keyed with the secret's bytes, space-separated when a rotation keeps
 * the previous secret signing too.
 */
export const STANDARD_WEBHOOK_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;

/**
 * The `webhook-id` of the event that job `thumbnailJobId` (`<md5>.<type>`) ended with, its end
 * being event `endEventId` (`<unix ms>-<seq>`) of the queue's stream: `evt_<md5>_<type>_<unix
 * ms>-<seq>`. Made of what identifies that end, so every attempt, and any worker that sees the same
 * end, sends the same id; no `.` in it, as the spec asks.
 */
export const thumbnailCallbackEventId = (thumbnailJobId: string, endEventId: string): string =>
  `evt_${thumbnailJobId.replace('.', '_')}_${endEventId}`;

/** Delays after the first attempt at which a delivery is tried again (5 attempts in all). */
export const CALLBACK_RETRY_SCHEDULE_MS: readonly number[] = [10_000, 60_000, 180_000, 600_000];

/** A delivery's job data: one registered URL, the key whose secret signs it, the body to send. */
export interface ThumbnailCallbackDelivery {
  callbackURL: string;
  apiKeyId: number;
  payload: ThumbnailCallbackEvent;
  /** `webhook-id` (`thumbnailCallbackEventId`); absent on deliveries queued before it existed (the worker derives it from the job id). */
  webhookId?: string;
  /** Unix ms (Redis's clock) of the URL's registration: a 410 from that URL after it drops the delivery. Absent as `webhookId`. */
  registeredAt?: number;
  /** Unix ms of the first attempt, set by it: the retry schedule counts from there. */
  firstAttemptAt?: number;
}

/**
 * The Redis hash of callback URLs registered for the one job of (md5, type): field the URL, value
 * `<API key id>:<Redis time of the registration, ms>`. The same URL twice is one field, so one call.
 */
export const thumbnailCallbacksKey = (redisPrefix: string, jobId: string): string =>
  `${redisPrefix}thumbs:callbacks:${jobId}`;

/** A thumbnail job id: `<md5>.<type>`. */
const JOB_ID = new RegExp(`^(${MD5_LOWER_DIGITS})\\.([a-z0-9]+)$`);

/** The md5 and type of a thumbnail job id (`thumbnailJobId`), or undefined for another id. */
export function thumbnailOfJobId(jobId: string): { md5: string; type: string } | undefined {
  const match = JOB_ID.exec(jobId);
  return match ? { md5: match[1]!, type: match[2]! } : undefined;
}

/**
 * A callbackURL as given, or null when its form is refused (1085): a string of at most
 * CALLBACK_URL_MAX_LENGTH characters that is an absolute http or https URL with a host. Whether
 * its address may be called is decided after resolving it (`firstRefusedAddress` in @pawlink/address-safety).
 */
export function parseCallbackUrl(value: unknown): URL | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > CALLBACK_URL_MAX_LENGTH) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return null;
  return url;
}
