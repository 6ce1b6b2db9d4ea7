import { THUMBNAIL_FAILURE_REASONS } from '@pawlink/contracts';
import { describe, expect, it } from 'vitest';
import { jobTypeLabel, thumbnailFailureOutcomeOf } from './thumbnail-outcome.rules.js';

describe('thumbnail job outcomes', () => {
  it('name a failed attempt by its failure class, a timeout, a stall past the limit, or just failed', () => {
    expect(thumbnailFailureOutcomeOf(THUMBNAIL_FAILURE_REASONS.notOnBoard)).toBe('notOnBoard');
    expect(thumbnailFailureOutcomeOf(THUMBNAIL_FAILURE_REASONS.unreadable)).toBe('unreadable');
    expect(thumbnailFailureOutcomeOf('timeout: thumbnail generation took longer than 1000 ms')).toBe('timeout');
    expect(thumbnailFailureOutcomeOf('job stalled more than allowable limit')).toBe('stalled');
    expect(thumbnailFailureOutcomeOf('something else')).toBe('failed');
    expect(thumbnailFailureOutcomeOf(undefined)).toBe('failed');
  });

  it('label a job by its thumbnail type, or other', () => {
    expect(jobTypeLabel('mp4')).toBe('mp4');
    expect(jobTypeLabel('exe')).toBe('other');
    expect(jobTypeLabel(undefined)).toBe('other');
  });
});
