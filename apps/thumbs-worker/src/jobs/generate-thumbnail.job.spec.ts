import { isThumbnailTimeout, THUMBNAIL_JOB, type ThumbnailJobPayload, type ThumbnailJobResult } from '@pawlink/contracts';
import { UnrecoverableError } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { JobTimeoutError, UnsupportedMediaError } from '../services/thumbnail.errors.js';
import { handleThumbnailJob, type ThumbnailJob, type ThumbnailJobDeps } from './generate-thumbnail.job.js';

const MD5 = '0123456789abcdef0123456789abcdef';
const result: ThumbnailJobResult = { md5: MD5, type: 'png', file: `${MD5}.png`, bytes: 3, width: 1, height: 1, frames: 1, durationMs: 5 };

function job(overrides: Partial<ThumbnailJob> = {}): ThumbnailJob & { progress: number[] } {
  const progress: number[] = [];
  return {
    id: `${MD5}:png`, name: THUMBNAIL_JOB, data: { md5: MD5, type: 'png', requestedAt: 0 },
    updateProgress: (value) => Promise.resolve(void progress.push(value as number)),
    progress,
    ...overrides,
  };
}

/** A render service that runs `render`, with a silent logger and a generous budget. */
const deps = (render: ThumbnailJobDeps['renderService']['render'], jobTimeoutMs = 5_000): ThumbnailJobDeps => ({
  renderService: { render },
  jobTimeoutMs,
  logger: { warn: () => undefined } as unknown as ThumbnailJobDeps['logger'],
});

const failing = (error: Error) => deps(() => Promise.reject(error));
const reasonOf = (promise: Promise<unknown>): Promise<unknown> => promise.then(() => undefined, (e: unknown) => e);

describe('handleThumbnailJob', () => {
  it('renders the job, passing progress on to the job', async () => {
    const j = job();
    const done = await handleThumbnailJob(j, deps(async (payload, report) => {
      expect(payload).toEqual(j.data);
      await report(50);
      return result;
    }));
    expect(done).toBe(result);
    expect(j.progress).toEqual([50]);
  });

  it('refuses a job name it has no handler for, for good', async () => {
    const error = await reasonOf(handleThumbnailJob(job({ name: 'resize-image' }), deps(() => Promise.resolve(result))));
    expect(error).toBeInstanceOf(UnrecoverableError);
    expect((error as Error).message).toBe('no handler for job "resize-image"');
  });

  it('refuses an invalid payload for good', async () => {
    const invalid: unknown[] = [null, {}, { md5: 'nope', type: 'png' }, { md5: MD5, type: 'jpg' }, { md5: 12, type: 'gif' }];
    for (const data of invalid) {
      const error = await reasonOf(handleThumbnailJob(job({ data: data as ThumbnailJobPayload }), deps(() => Promise.resolve(result))));
      expect(error).toBeInstanceOf(UnrecoverableError);
      expect((error as Error).message).toBe('invalid job payload');
    }
  });

  it('turns unsupported media into an unrecoverable failure with the same reason', async () => {
    const error = await reasonOf(handleThumbnailJob(job(), failing(new UnsupportedMediaError('unsupported file type "swf"'))));
    expect(error).toBeInstanceOf(UnrecoverableError);
    expect((error as Error).message).toBe('unsupported file type "swf"');
  });

  it('passes any other failure on as it is, so the queue retries it', async () => {
    const failure = new Error('board unavailable after 2 attempt(s)');
    expect(await reasonOf(handleThumbnailJob(job(), failing(failure)))).toBe(failure);
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
    const running = handleThumbnailJob(job(), deps((_payload, _report, s) => {
      signal = s;
      return new Promise<never>(() => undefined);
    }), cancel.signal);
    cancel.abort(stop);
    expect(await reasonOf(running)).toBe(stop);
    expect(signal?.aborted).toBe(true);
  });
});
