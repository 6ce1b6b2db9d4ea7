import { ConfigError } from '@pawlink/service-kit';
import { itRefusesBadValues } from '@pawlink/test-kit/suites/config';
import { describe, expect, it } from 'vitest';
import { loadBoardConfig } from './board.config.js';

describe('loadBoardConfig', () => {
  it('defaults to e621 with the board policy of 2 requests per second', () => {
    expect(loadBoardConfig({})).toEqual({
      baseUrl: 'https://e621.net',
      staticUrl: 'https://static1.e621.net',
      userAgent: 'Pawlink/1.0.0 (thumbnails)',
      requestsPerSecond: 2,
      timeoutMs: 10_000,
      retries: 2,
      demo: false,
    });
  });

  it('takes BOARD_URL=demo for the local demo board on 127.0.0.1:DEMO_BOARD_PORT (default 3009)', () => {
    expect(loadBoardConfig({ BOARD_URL: 'demo' })).toMatchObject({
      baseUrl: 'http://127.0.0.1:3009',
      staticUrl: 'http://127.0.0.1:3009',
      demo: true,
    });
    expect(
      loadBoardConfig({ BOARD_URL: 'demo', DEMO_BOARD_PORT: '4100', BOARD_STATIC_URL: 'https://elsewhere.example' }),
    ).toMatchObject({ baseUrl: 'http://127.0.0.1:4100', staticUrl: 'http://127.0.0.1:4100' });
    expect(() => loadBoardConfig({ BOARD_URL: 'demo', DEMO_BOARD_PORT: 'x' })).toThrow('DEMO_BOARD_PORT');
  });

  itRefusesBadValues(
    loadBoardConfig,
    ConfigError,
    [
      ['BOARD_URL', 'e621.net'],
      ['BOARD_STATIC_URL', 'ftp://static'],
      ['BOARD_REQUESTS_PER_SECOND', '0'],
      ['BOARD_TIMEOUT_MS', 'soon'],
      ['BOARD_RETRIES', '-1'],
    ],
    'rejects %s=%s naming it',
  );
});
