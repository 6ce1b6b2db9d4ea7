import { readInt, readPort, readString, readUrl, type Env } from '@pawlink/service-kit';
import { BOARD_DEFAULTS, DEMO_BOARD_DEFAULT_PORT } from './board.defaults.js';

/** The board settings every process that talks to the board reads, named as createBoardClient wants them. */
export interface BoardConfig {
  /** The board's JSON API (e621-compatible). */
  baseUrl: string;
  /** Where files live when a post's `file.url` is hidden. */
  staticUrl: string;
  userAgent: string;
  /** Board API requests per second across every process sharing the Redis. */
  requestsPerSecond: number;
  timeoutMs: number;
  retries: number;
  /** `BOARD_URL=demo`: the local demo board (packages/board/src/demo) on 127.0.0.1:DEMO_BOARD_PORT. */
  demo: boolean;
}

const VERSION = '1.0.0';

/** BOARD_* variables; shared by the thumbs API and the worker so they can never disagree. */
export function loadBoardConfig(env: Env): BoardConfig {
  const demo = readString(env, 'BOARD_URL', '').toLowerCase() === 'demo';
  const demoUrl = demo ? `http://127.0.0.1:${readPort(env, 'DEMO_BOARD_PORT', DEMO_BOARD_DEFAULT_PORT)}` : '';
  return {
    baseUrl: demo ? demoUrl : readUrl(env, 'BOARD_URL', 'https://e621.net'),
    staticUrl: demo ? demoUrl : readUrl(env, 'BOARD_STATIC_URL', 'https://static1.e621.net'),
    userAgent: readString(env, 'BOARD_USER_AGENT', `Pawlink/${VERSION} (thumbnails)`),
    requestsPerSecond: readInt(env, 'BOARD_REQUESTS_PER_SECOND', BOARD_DEFAULTS.requestsPerSecond, {
      min: 1,
      max: 100,
    }),
    timeoutMs: readInt(env, 'BOARD_TIMEOUT_MS', BOARD_DEFAULTS.timeoutMs, { min: 100, max: 120_000 }),
    retries: readInt(env, 'BOARD_RETRIES', BOARD_DEFAULTS.retries, { min: 0, max: 10 }),
    demo,
  };
}
