import { describe, expect, it } from 'vitest';
import {
  THUMBNAIL_FAILURE_REASONS,
  thumbnailFailureOf,
  thumbnailWorkerName,
  thumbnailWorkerSlots,
  type ThumbnailFailure,
} from './thumbs.js';

describe('thumbnail worker names', () => {
  it("announce the worker's concurrency, read back from its Redis client name", () => {
    const name = thumbnailWorkerName('media-2', 4711, 4);
    expect(name).toBe('media-2:4711:c4');
    expect(thumbnailWorkerSlots(`pawlink:bull:thumbs:w:${name}`)).toBe(4);
  });

  it('count a worker that does not say as one slot', () => {
    for (const clientName of ['pawlink:bull:thumbs', 'pawlink:bull:thumbs:w:host:12', 'x:c0', 'x:c', 'x:c12345', '']) {
      expect(thumbnailWorkerSlots(clientName), clientName).toBe(1);
    }
  });
});

describe('thumbnail failure classes', () => {
  it('are told back from the fixed sentence the worker fails a job with, one class per sentence', () => {
    const sentences = Object.values(THUMBNAIL_FAILURE_REASONS);
    expect(new Set(sentences).size).toBe(sentences.length);
    for (const [failure, sentence] of Object.entries(THUMBNAIL_FAILURE_REASONS))
      expect(thumbnailFailureOf(sentence)).toBe(failure as ThumbnailFailure);
  });

  it('are unknown for any other reason', () => {
    for (const reason of [
      null,
      undefined,
      '',
      'timeout: thumbnail generation took longer than 120000 ms',
      'corrupt: bad header',
      `${THUMBNAIL_FAILURE_REASONS.notOnBoard}.`,
    ]) {
      expect(thumbnailFailureOf(reason), String(reason)).toBeUndefined();
    }
  });
});
