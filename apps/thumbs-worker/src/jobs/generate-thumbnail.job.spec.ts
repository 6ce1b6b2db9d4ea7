import { BoardUnavailableError } from '@pawlink/board';
import {
  isThumbnailTimeout,
  THUMBNAIL_FAILURE_REASONS,
  THUMBNAIL_JOB,
  thumbnailFailureOf,
  type ThumbnailJobPayload,
  type ThumbnailJobResult,
} from '@pawlink/contracts';
import { UnrecoverableError } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { JobTimeoutError, RetryableJobError, UnsupportedMediaError } from '../domain/thumbnail.errors.js';
import { handleThumbnailJob, type ThumbnailJob, type ThumbnailJobDeps } from './generate-thumbnail.job.js';

const MD5 = '0123456789abcdef0123456789abcdef';
const result: ThumbnailJobResult = {
  md5: MD5,
  type: 'png',
  file: `${MD5}.png`,
  bytes: 3,
  width: 1,
  height: 1,
  frames: 1,
  durationMs: 5,
  written: ['png'],
};

function job(overrides: Partial<ThumbnailJob> = {}): ThumbnailJob & { progress: number[] } {
  const progress: number[] = [];
  return {
    id: `${MD5}:png`,
    name: THUMBNAIL_JOB,
    data: { md5: MD5, type: 'png', requestedAt: 0 },
    updateProgress: (value) => Promise.resolve(void progress.push(value as number)),
    progress,
    ...overrides,
  };
}

/** What the handler logged, newest last. */
let logged: Array<{ message: string; meta: Record<string, unknown> }> = [];

/** A render service that runs `render`, with a logger that keeps its lines and a generous budget. */
const deps = (render: ThumbnailJobDeps['renderService']['render'], jobTimeoutMs = 5_000): ThumbnailJobDeps => {
  logged = [];
  const warn = (message: string, meta: Record<string, unknown> = {}) => logged.push({ message, meta });
  return { renderService: { render }, jobTimeoutMs, logger: { warn } as unknown as ThumbnailJobDeps['logger'] };
};

const failing = (error: Error) => deps(() => Promise.reject(error));
const reasonOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('handleThumbnailJob', () => {
  it('renders the job, passing progress on to the job', async () => {
    const j = job();
    const done = await handleThumbnailJob(
      j,
      deps(async (payload, report) => {
        expect(payload).toEqual(j.data);
        await report(50);
        return result;
      }),
    );
    expect(done).toBe(result);
    expect(j.progress).toEqual([50]);
  });

  it('refuses a job name it has no handler for, for good', async () => {
    const error = await reasonOf(
      handleThumbnailJob(
        job({ name: 'resize-image' }),
        deps(() => Promise.resolve(result)),
      ),
    );
    expect(error).toBeInstanceOf(UnrecoverableError);
    expect((error as Error).message).toBe('no handler for job "resize-image"');
  });

  it('hands every thumbnail type to the render service', async () => {
    for (const type of ['gif', 'png', 'webp', 'mp4'] as const) {
      const rendered: string[] = [];
      await handleThumbnailJob(
        job({ data: { md5: MD5, type, requestedAt: 0 } }),
        deps((payload) => {
          rendered.push(payload.type);
          return Promise.resolve(result);
        }),
      );
      expect(rendered).toEqual([type]);
    }
  });

  it('refuses an invalid payload for good', async () => {
    const invalid: unknown[] = [
      null,
      {},
      { md5: 'nope', type: 'png' },
      { md5: MD5, type: 'jpg' },
      { md5: 12, type: 'gif' },
    ];
    for (const data of invalid) {
      const error = await reasonOf(
        handleThumbnailJob(
          job({ data: data as ThumbnailJobPayload }),
          deps(() => Promise.resolve(result)),
        ),
      );
      expect(error).toBeInstanceOf(UnrecoverableError);
      expect((error as Error).message).toBe('invalid job payload');
    }
  });

  it("turns unsupported media into an unrecoverable failure with its class's fixed reason, and logs the detail", async () => {
    const error = await reasonOf(
      handleThumbnailJob(
        job(),
        failing(new UnsupportedMediaError('unsupported file type "swf"', { failure: 'unsupportedType' })),
      ),
    );
    expect(error).toBeInstanceOf(UnrecoverableError);
    expect((error as Error).message).toBe(THUMBNAIL_FAILURE_REASONS.unsupportedType);
    expect(logged.at(-1)).toEqual({
      message: 'thumbnail job failed for good',
      meta: {
        jobId: `${MD5}:png`,
        failure: 'unsupportedType',
        reason: THUMBNAIL_FAILURE_REASONS.unsupportedType,
        detail: 'unsupported file type "swf"',
      },
    });
  });

  it('fails a job for a post the board does not have for good, with the reason the API reads back as that class (404 1068)', async () => {
    const error = await reasonOf(
      handleThumbnailJob(
        job(),
        failing(new UnsupportedMediaError('post not found on the board', { failure: 'notOnBoard' })),
      ),
    );
    expect(error).toBeInstanceOf(UnrecoverableError);
    expect(thumbnailFailureOf((error as Error).message)).toBe('notOnBoard');
  });

  it("passes any other failure on as retryable, with its class's fixed reason; URL, status and md5 stay in the log", async () => {
    const cases: Array<[Error, string]> = [
      [
        new BoardUnavailableError('board unavailable after 2 attempt(s): board answered 502', 502),
        THUMBNAIL_FAILURE_REASONS.boardUnavailable,
      ],
      [
        new RetryableJobError('download', 'download of http://10.0.0.1/x.png failed: HTTP 503'),
        THUMBNAIL_FAILURE_REASONS.download,
      ],
      [
        new RetryableJobError('mismatch', `downloaded file has md5 ${'f'.repeat(32)}, expected ${MD5}`),
        THUMBNAIL_FAILURE_REASONS.mismatch,
      ],
      [
        new Error("EACCES: permission denied, open '/srv/media/thumbs/x'", { cause: new Error('deep') }),
        THUMBNAIL_FAILURE_REASONS.internal,
      ],
    ];
    for (const [failure, reason] of cases) {
      const error = await reasonOf(handleThumbnailJob(job(), failing(failure)));
      expect(error).not.toBeInstanceOf(UnrecoverableError);
      expect((error as Error).message).toBe(reason);
      expect(logged.at(-1)).toMatchObject({
        message: 'thumbnail job failed; it may be retried',
        meta: { reason, detail: failure.message },
      });
    }
    expect(logged.at(-1)?.meta.cause).toBe('deep');
  });

  it('ends a job over its budget at once, unrecoverable, with the timeout marker, and aborts the render', async () => {
    let signal: AbortSignal | undefined;
    const hanging = deps((_payload, _report, s) => {
      signal = s;
      return new Promise<never>(() => undefined);
    }, 50);
    const error = await reasonOf(handleThumbnailJob(job(), hanging));
    expect(error).toBeInstanceOf(UnrecoverableError);
    expect(isThumbnailTimeout((error as Error).message)).toBe(true);
    expect((error as Error).message).toBe('timeout: thumbnail generation took longer than 50 ms');
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBeInstanceOf(JobTimeoutError);
  });

  it('aborts the render when BullMQ cancels the job, and lets the queue decide', async () => {
    const cancel = new AbortController();
    const stop = new Error('worker closing');
    let signal: AbortSignal | undefined;
    const running = handleThumbnailJob(
      job(),
      deps((_payload, _report, s) => {
        signal = s;
        return new Promise<never>(() => undefined);
      }),
      cancel.signal,
    );
    cancel.abort(stop);
    expect(await reasonOf(running)).toBe(stop);
    expect(signal?.aborted).toBe(true);
  });
});
