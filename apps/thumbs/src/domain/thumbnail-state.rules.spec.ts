import { describe, expect, it } from 'vitest';
import { failureSentence, FAILURE_SENTENCE_MAX } from './thumbnail-state.rules.js';

describe('failureSentence', () => {
  it('keeps the first line of a failure, cut to its bound', () => {
    expect(failureSentence('the post is not on the board\n    at x (/srv/a.js:1:1)')).toBe(
      'the post is not on the board',
    );
    expect(failureSentence('x'.repeat(1000))).toHaveLength(FAILURE_SENTENCE_MAX);
  });
});
