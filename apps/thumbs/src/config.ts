import { loadBoardConfig, type BoardConfig } from '@pawlink/board/config';
import type { MediaHost } from '@pawlink/address-safety';
import {
  loadBaseConfig,
  readBool,
  readEnum,
  readHostList,
  readInt,
  type BaseConfig,
  type Env,
} from '@pawlink/service-kit';

export interface ThumbsSettings {
  /** How long a failed or timed-out job is reported before a PUT may start a new attempt. */
  failedTtlSeconds: number;
  /** How long a completed job is kept (only for progress lookups; the file is the truth). */
  completedTtlSeconds: number;
  /** Attempts per job for recoverable failures (board unreachable, stalled worker). */
  jobAttempts: number;
  /** Job duration assumed until the queue has finished a job. */
  defaultJobMs: number;
  /** Recent job durations kept for the estimate. */
  durationSamples: number;
  /** Longest a request waits for a board rate-limit slot to resolve a post id before answering 503 1067. */
  boardMaxWaitMs: number;
  /** The most board slots booked ahead one API key may hold for post-id lookups. */
  boardSharePerKey: number;
  /** The same for one client IP, whatever keys it uses. */
  boardSharePerIp: number;
  /** How long a queue-dashboard login lasts (THUMBS_ADMIN_SESSION_TTL_SECONDS). */
  adminSessionTtlSeconds: number;
  /** Whether the session cookie is `Secure` (ADMIN_COOKIE_SECURE; `auto`: when THUMBS_URL is https). */
  adminCookieSecure: boolean;
  /** THUMBS_DASHBOARD_WRITE: the dashboard may add, clean, empty, pause… (else read-only). */
  dashboardWrite: boolean;
  /**
   * THUMBS_CALLBACK_PRIVATE_HOSTS: `host:port` entries a callbackURL may name although they resolve
   * to loopback, private or reserved addresses (a receiver on this machine or network, tests).
   * Default none: callbacks go to public addresses only. The worker reads the same variable.
   */
  callbackPrivateHosts: MediaHost[];
}

const COOKIE_SECURE = ['auto', 'true', 'false'] as const;

export interface ThumbsConfig extends BaseConfig {
  board: BoardConfig;
  thumbs: ThumbsSettings;
}

/** `auto` follows the scheme of THUMBS_URL; `true` is for TLS that ends at a proxy in front of an http:// THUMBS_URL. */
function cookieSecure(setting: (typeof COOKIE_SECURE)[number], thumbsUrl: string): boolean {
  return setting === 'auto' ? new URL(thumbsUrl).protocol === 'https:' : setting === 'true';
}

/** Everything the thumbs API reads from the environment; nothing else reads process.env. */
export function loadThumbsConfig(env: Env, cwd = process.cwd()): ThumbsConfig {
  const base = loadBaseConfig(env, cwd);
  return {
    ...base,
    board: loadBoardConfig(env),
    thumbs: {
      failedTtlSeconds: readInt(env, 'THUMBS_FAILED_TTL_SECONDS', 3600, { min: 1, max: 30 * 86_400 }),
      completedTtlSeconds: readInt(env, 'THUMBS_COMPLETED_TTL_SECONDS', 3600, { min: 1, max: 30 * 86_400 }),
      jobAttempts: readInt(env, 'THUMBS_JOB_ATTEMPTS', 3, { min: 1, max: 20 }),
      defaultJobMs: readInt(env, 'THUMBS_DEFAULT_JOB_MS', 5000, { min: 100, max: 3_600_000 }),
      durationSamples: readInt(env, 'THUMBS_DURATION_SAMPLES', 20, { min: 1, max: 1000 }),
      boardMaxWaitMs: readInt(env, 'THUMBS_BOARD_MAX_WAIT_MS', 3000, { min: 0, max: 60_000 }),
      boardSharePerKey: readInt(env, 'THUMBS_BOARD_SHARE_PER_KEY', 2, { min: 1, max: 1000 }),
      boardSharePerIp: readInt(env, 'THUMBS_BOARD_SHARE_PER_IP', 4, { min: 1, max: 1000 }),
      adminSessionTtlSeconds: readInt(env, 'THUMBS_ADMIN_SESSION_TTL_SECONDS', 8 * 3600, { min: 60, max: 7 * 86_400 }),
      adminCookieSecure: cookieSecure(readEnum(env, 'ADMIN_COOKIE_SECURE', COOKIE_SECURE, 'auto'), base.urls.thumbs),
      dashboardWrite: readBool(env, 'THUMBS_DASHBOARD_WRITE', false),
      callbackPrivateHosts: readHostList(env, 'THUMBS_CALLBACK_PRIVATE_HOSTS') ?? [],
    },
  };
}
