import { createHmac } from 'node:crypto';
import { THUMBNAIL_FAILURE_REASONS } from '@pawlink/contracts';
import { describe, expect, it } from 'vitest';
import { callbackEventOf } from './callback-event.rules.js';
import { callbackAttempts, callbackRetryDelayMs } from './callback-retry.rules.js';
import { callbackSignature } from './callback-signature.rules.js';

const MD5 = 'd41d8cd98f00b204e9800998ecf8427e';
const MEDIA = 'http://media.test/thumbs';

describe('callbackEventOf', () => {
  it('tells done with the file URL', () => {
    expect(callbackEventOf(`${MD5}.gif`, { kind: 'completed' }, 5, MEDIA)).toEqual({
      event: 'thumbnail.done',
      md5: MD5,
      type: 'gif',
      url: `${MEDIA}/${MD5}.gif`,
      code: null,
      error: null,
      at: 5,
    });
  });

  it('tells failures with the code and message GET /check answers', () => {
    expect(
      callbackEventOf(`${MD5}.png`, { kind: 'failed', failedReason: THUMBNAIL_FAILURE_REASONS.unreadable }, 5, MEDIA),
    ).toMatchObject({ event: 'thumbnail.failed', url: null, code: 1060, error: THUMBNAIL_FAILURE_REASONS.unreadable });
    expect(
      callbackEventOf(`${MD5}.png`, { kind: 'failed', failedReason: THUMBNAIL_FAILURE_REASONS.notOnBoard }, 5, MEDIA),
    ).toMatchObject({ event: 'thumbnail.failed', code: 1068, error: 'The post was not found on the board.' });
    expect(
      callbackEventOf(
        `${MD5}.png`,
        { kind: 'failed', failedReason: 'timeout: thumbnail generation took longer than 1000 ms\n  at x' },
        5,
        MEDIA,
      ),
    ).toMatchObject({
      event: 'thumbnail.timeout',
      code: 1065,
      error: 'timeout: thumbnail generation took longer than 1000 ms',
    });
  });

  it('ignores jobs that are not thumbnails', () => {
    expect(callbackEventOf('something-else', { kind: 'completed' }, 5, MEDIA)).toBeUndefined();
    expect(callbackEventOf(`${MD5}.bmp`, { kind: 'completed' }, 5, MEDIA)).toBeUndefined();
  });
});

describe('callbackSignature', () => {
  it('is t=<seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">', () => {
    const expected = createHmac('sha256', 'whsec_test').update('1700000000.{"a":1}').digest('hex');
    expect(callbackSignature('whsec_test', '{"a":1}', 1_700_000_000)).toBe(`t=1700000000,v1=${expected}`);
  });
});

describe('callbackRetryDelayMs', () => {
  const schedule = [10_000, 60_000, 180_000, 600_000];
  it('counts each retry from the first attempt', () => {
    expect(callbackAttempts(schedule)).toBe(5);
    expect(callbackRetryDelayMs(1, 0, schedule, 5000)).toBe(5000);
    expect(callbackRetryDelayMs(2, 0, schedule, 15_000)).toBe(45_000);
    expect(callbackRetryDelayMs(3, 0, schedule, 65_000)).toBe(115_000);
    expect(callbackRetryDelayMs(4, 0, schedule, 185_000)).toBe(415_000);
  });
  it('retries at once when the moment has passed', () => {
    expect(callbackRetryDelayMs(1, 0, schedule, 20_000)).toBe(0);
  });
});
