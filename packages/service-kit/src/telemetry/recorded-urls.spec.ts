import { describe, expect, it } from 'vitest';
import { outgoingUrlWithoutQuery, REDACTED_SERVER_QUERY } from './recorded-urls.js';

describe('what a span records of a URL', () => {
  it('keeps an outgoing request’s scheme, host, port and path, and drops its query and fragment', () => {
    expect(
      outgoingUrlWithoutQuery({
        protocol: 'https:',
        hostname: 'hooks.example.com',
        port: 8443,
        path: '/in?token=s3cret#x',
      }),
    ).toBe('https://hooks.example.com:8443/in');
    expect(outgoingUrlWithoutQuery({ hostname: '127.0.0.1', path: '/posts.json?api_key=k&tags=md5:ab' })).toBe(
      'http://127.0.0.1/posts.json',
    );
    expect(outgoingUrlWithoutQuery({ protocol: 'http:', hostname: '::1', port: '3000', path: '/a#frag' })).toBe(
      'http://[::1]:3000/a',
    );
    expect(outgoingUrlWithoutQuery({ host: 'board.example' })).toBe('http://board.example/');
  });

  it('redacts callbackURL on incoming requests, beside the instrumentation’s own names', () => {
    expect(REDACTED_SERVER_QUERY).toContain('callbackURL');
    expect(REDACTED_SERVER_QUERY).toContain('X-Amz-Signature');
  });
});
