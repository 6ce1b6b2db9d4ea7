import { describe, expect, it } from 'vitest';
import {
  CALLBACK_URL_MAX_LENGTH,
  parseCallbackUrl,
  thumbnailCallbackEventId,
  thumbnailOfJobId,
} from './thumb-callbacks.js';

describe('parseCallbackUrl', () => {
  it('takes absolute http and https URLs up to the length limit', () => {
    expect(parseCallbackUrl('https://bot.example.com/hooks/thumbs?x=1')?.href).toBe(
      'https://bot.example.com/hooks/thumbs?x=1',
    );
    expect(parseCallbackUrl('http://8.8.4.4:8080/')?.port).toBe('8080');
    const longest = `https://example.com/${'a'.repeat(CALLBACK_URL_MAX_LENGTH - 'https://example.com/'.length)}`;
    expect(parseCallbackUrl(longest)).not.toBeNull();
  });

  it.each([
    ['ftp://example.com/'],
    ['javascript:alert(1)'],
    ['file:///etc/passwd'],
    ['example.com/hook'],
    [''],
    [`https://example.com/${'a'.repeat(CALLBACK_URL_MAX_LENGTH)}`],
  ])('refuses %j', (value) => {
    expect(parseCallbackUrl(value)).toBeNull();
  });

  it('refuses what is not one string', () => {
    expect(parseCallbackUrl(['https://a.example/', 'https://b.example/'])).toBeNull();
    expect(parseCallbackUrl(undefined)).toBeNull();
  });
});

describe('thumbnailOfJobId', () => {
  it('reads md5 and type back from a thumbnail job id', () => {
    expect(thumbnailOfJobId('d41d8cd98f00b204e9800998ecf8427e.gif')).toEqual({
      md5: 'd41d8cd98f00b204e9800998ecf8427e',
      type: 'gif',
    });
    expect(thumbnailOfJobId('repeat:1')).toBeUndefined();
  });
});

describe('thumbnailCallbackEventId', () => {
  it('names the end of one job: the same for the same end, another for another end, with no dot', () => {
    const id = thumbnailCallbackEventId('d41d8cd98f00b204e9800998ecf8427e.gif', '1700000000000-3');
    expect(id).toBe('evt_d41d8cd98f00b204e9800998ecf8427e_gif_1700000000000-3');
    expect(id).not.toContain('.');
    expect(thumbnailCallbackEventId('d41d8cd98f00b204e9800998ecf8427e.gif', '1700000000000-4')).not.toBe(id);
  });
});
