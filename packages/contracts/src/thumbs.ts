import { md5Schema } from './md5.js';
import * as s from './schema.js';
import type { Static } from './schema.js';

/** Thumbnail formats a client may ask for (docs/api.md §4). */
export const THUMBNAIL_TYPES = ['gif', 'png', 'webp', 'mp4'] as const;
export type ThumbnailType = (typeof THUMBNAIL_TYPES)[number];

/** BullMQ queue name (prefixed by REDIS_PREFIX through the queue's `prefix` option). */
export const THUMBNAIL_QUEUE = 'thumbs';
/** The one job name on that queue. */
export const THUMBNAIL_JOB = 'generate-thumbnail';

/**
 * Deterministic job id: one job per (md5, type), whoever asks. `<md5>.<type>` (the file it makes),
 * not `<md5>:<type>`: BullMQ 6 rejects custom ids containing ':' ("Custom Id cannot contain :").
 */
export const thumbnailJobId = (md5: string, type: ThumbnailType): string => `${md5}.${type}`;

/**
 * A thumbnail worker's BullMQ name, `<host>:<pid>:c<concurrency>`: jobs record it as processedBy,
 * and it is part of the worker's Redis client name, from which the API counts the job slots on the
 * queue (not just the worker processes) for its wait estimates.
 */
export const thumbnailWorkerName = (host: string, pid: number, concurrency: number): string =>
  `${host}:${pid}:c${concurrency}`;

/** Jobs a worker runs side by side, read from its client name; 1 when the name does not say. */
export function thumbnailWorkerSlots(clientName: string): number {
  const announced = /:c(\d{1,4})$/.exec(clientName);
  return announced ? Math.max(1, Number(announced[1])) : 1;
}

/**
 * BullMQ `prefix` option of the thumbnail queue: every queue key starts with REDIS_PREFIX, and
 * `{bull}` is their hash tag, so on a Redis Cluster the queue's keys share the one slot BullMQ's
 * scripts need (`pawlink:{bull}:thumbs:wait`, …).
 */
export const thumbnailQueuePrefix = (redisPrefix: string): string => `${redisPrefix}{bull}`;

export interface ThumbnailJobPayload {
  /** Lower-case hex MD5 of the board post's file. */
  md5: string;
  type: ThumbnailType;
  /** The board's post id when the caller knew it (saves the worker a lookup). */
  postId?: number;
  /** Unix ms when the job was requested. */
  requestedAt: number;
}

export interface ThumbnailJobResult {
  md5: string;
  type: ThumbnailType;
  /** File name under MEDIA_DIR/thumbs (`thumbnailFileName`). */
  file: string;
  bytes: number;
  width: number;
  height: number;
  frames: number;
  durationMs: number;
  /** Every file the job published, the requested one last (one decode serves several types). */
  written: ThumbnailType[];
}

/** `GET /:id`: the URLs of a post's thumbnails, null where there is none yet. */
export const ThumbnailInfoSchema = s.object({
  success: s.literal(true),
  gifURL: s.nullable(s.string({ format: 'uri' })),
  pngURL: s.nullable(s.string({ format: 'uri' })),
  webpURL: s.nullable(s.string({ format: 'uri' })),
  /** The H.264 MP4 of the GIF's clip (a second of the still for stills), or null when none. */
  mp4URL: s.nullable(
    s.string({
      format: 'uri',
      description: 'H.264 MP4 (`video/mp4`) of the same clip as the GIF; one second of the still for a still image.',
    }),
  ),
  /** ThumbHash of the still (base64), or null until a thumbnail exists. */
  thumbhash: s.nullable(
    s.string({
      contentEncoding: 'base64',
      description:
        'ThumbHash of the still frame (a placeholder to show while the thumbnail loads); null until a thumbnail exists.',
    }),
  ),
});
export type ThumbnailInfoResponse = Static<typeof ThumbnailInfoSchema>;

/** A thumbnail that exists: `PUT` 200, `GET /check` 201. */
export const ThumbnailDoneSchema = s.object({
  success: s.literal(true),
  status: s.literal('done'),
  url: s.string({ format: 'uri', description: 'MEDIA_URL/<md5>.<type>' }),
});
export type ThumbnailDoneResponse = Static<typeof ThumbnailDoneSchema>;

/** A job queued or running: `PUT` 202, `GET /check` 200. */
export const ThumbnailProcessingSchema = s.object(
  {
    success: s.literal(true),
    status: s.literal('processing'),
    md5: md5Schema(),
    checkURL: s.string({ format: 'uri', description: 'THUMBS_URL/check/<md5>/<type>' }),
    checkAt: s.integer({ description: 'Unix ms when to ask again.' }),
    time: s.integer({ minimum: 0, description: 'Milliseconds from now until checkAt.' }),
    /** Unix ms when the job was queued; the same in every answer about the job. */
    startedAt: s.integer({ description: 'Unix ms when the job was queued; the same in every answer about it.' }),
    progress: s.number({ minimum: 0, maximum: 100 }),
  },
  { optional: ['progress'] },
);
export type ThumbnailProcessingResponse = Static<typeof ThumbnailProcessingSchema>;

export const POST_ID_PATTERN = /^[0-9]{1,18}$/;

/** A job that ran out of time fails with a reason starting with this marker (API answers 408 1065). */
export const THUMBNAIL_TIMEOUT_MARKER = 'timeout:';

/** True when a failed job's reason says it timed out rather than failed. */
export const isThumbnailTimeout = (failedReason: string | undefined | null): boolean =>
  (failedReason ?? '').startsWith(THUMBNAIL_TIMEOUT_MARKER);

/** `job.progress` values the worker reports at each stage (0–100). */
export const THUMBNAIL_PROGRESS = { resolved: 5, downloaded: 30, decoded: 60, encoded: 90, done: 100 } as const;

/**
 * The reason a failed job gives, one fixed sentence per failure class: it reaches API clients as
 * the message of 1060, so it never names a URL, an HTTP status, an md5 or a tool's output (those
 * stay in the worker's logs). A timed-out job's reason starts with THUMBNAIL_TIMEOUT_MARKER instead.
 * The sentence is also how the API tells the class back (`thumbnailFailureOf`): a post the board
 * does not have is answered 404 1068, not 1060. So each sentence is distinct, and a changed one
 * is only recognised for jobs failed after the change.
 */
export const THUMBNAIL_FAILURE_REASONS = {
  notOnBoard: 'the post is not on the board',
  unsupportedType: "the post's file type cannot be made into a thumbnail",
  download: "the post's file could not be downloaded",
  tooLarge: "the post's file is over the size limits for thumbnails",
  mismatch: "the downloaded file does not match the post's md5",
  unreadable: 'the file is not a readable image or video',
  boardUnavailable: 'the image board could not be reached',
  internal: 'the thumbnail could not be generated',
} as const;

/** A failure class of a thumbnail job (the keys of THUMBNAIL_FAILURE_REASONS). */
export type ThumbnailFailure = keyof typeof THUMBNAIL_FAILURE_REASONS;

/** The failure class whose fixed sentence a failed job's reason is; undefined for any other reason (a timeout, an older worker's words). */
export function thumbnailFailureOf(failedReason: string | null | undefined): ThumbnailFailure | undefined {
  for (const [failure, sentence] of Object.entries(THUMBNAIL_FAILURE_REASONS) as Array<[ThumbnailFailure, string]>) {
    if (failedReason === sentence) return failure;
  }
  return undefined;
}

/** The longest failure reason an answer shows. */
export const FAILURE_SENTENCE_MAX = 300;

/** A failure as clients, callbacks and the dashboard see it: the first line of the reason, never what follows (a stack trace). */
export function failureSentence(reason: string): string {
  const line = (reason.split(/\r\n|\r|\n/, 1)[0] ?? '').trim();
  return line.length > FAILURE_SENTENCE_MAX ? `${line.slice(0, FAILURE_SENTENCE_MAX - 1)}…` : line;
}

/**
 * How a failed job is reported, by `GET /check` and by completion callbacks alike: a post the
 * board does not have (1068), a timeout (1065, the reason starts with THUMBNAIL_TIMEOUT_MARKER),
 * or a failure (1060) with the first line of its reason.
 */
export type ThumbnailFailureReport = { kind: 'notOnBoard' } | { kind: 'timeout' | 'failed'; reason: string };

export function thumbnailFailureReportOf(failedReason: string | null | undefined): ThumbnailFailureReport {
  if (thumbnailFailureOf(failedReason) === 'notOnBoard') return { kind: 'notOnBoard' };
  const reason = failureSentence(failedReason ?? '') || 'Thumbnail generation failed.';
  return { kind: isThumbnailTimeout(reason) ? 'timeout' : 'failed', reason };
}
