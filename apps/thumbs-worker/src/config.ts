import os from 'node:os';
import path from 'node:path';
import { loadBoardConfig, type BoardConfig } from '@pawlink/board/config';
import {
  ConfigError,
  loadBaseConfig,
  readHostList,
  readInt,
  readKey256,
  readPort,
  readPortOrOff,
  readString,
  type BaseConfig,
  type Env,
} from '@pawlink/service-kit';
import { mediaHostsOf, type MediaHost } from '@pawlink/address-safety';
import { CALLBACK_RETRY_SCHEDULE_MS } from '@pawlink/contracts';
import type { RenderLimits } from './domain/thumbnail-job.rules.js';

export type { RenderLimits };

/** The worker's own settings (WORKER_*, THUMBS_*, FFMPEG_PATH, FFPROBE_PATH). */
export interface WorkerSettings {
  /** Jobs this process runs at once, each on its own worker thread. */
  concurrency: number;
  /**
   * BullMQ job lock, renewed every half of it by the main thread. Renders run on worker threads,
   * so the main thread's event loop stays free to renew however long a render takes (up to
   * THUMBS_JOB_TIMEOUT_MS); the lock only has to outlast a renewal delayed by a slow Redis or a
   * GC pause. Short, so a killed worker's job comes back soon: after lock + stalled interval at worst.
   */
  lockDurationMs: number;
  /** How often (across all workers) active jobs whose lock has expired are put back in the queue. */
  stalledIntervalMs: number;
  maxStalledCount: number;
  jobTimeoutMs: number;
  maxDownloadBytes: number;
  downloadTimeoutMs: number;
  /** The only hosts files are downloaded from, at every redirect (THUMBS_DOWNLOAD_HOSTS). */
  downloadHosts: MediaHost[];
  /**
   * Those of the download hosts that may be at loopback, private, link-local or reserved
   * addresses: only a board on the local network (and tests). Every other host resolving to such
   * an address is refused, at every hop (THUMBS_DOWNLOAD_PRIVATE_HOSTS, default none).
   */
  downloadPrivateHosts: MediaHost[];
  /** Redirects followed per download, each checked like the first URL. */
  downloadMaxRedirects: number;
  /** Downloads land here, one directory per job, before decoding. */
  tmpDir: string;
  ffmpegPath: string;
  ffprobePath: string;
  limits: RenderLimits;
  /** `/online` and `/ready` over HTTP; port null: no server (WORKER_HEALTH_PORT unset). */
  health: { host: string; port: number | null };
  /**
   * `GET /metrics` on METRICS_HOST:WORKER_METRICS_PORT; null (unset or `off`): none. Off by
   * default, unlike the services': several workers run side by side on one host (`npm start`
   * gives each its own port, compose one per container).
   */
  metricsPort: number | null;
}

/** What a worker process does (THUMBS_WORKER_ROLES): render thumbnails, deliver completion callbacks, or both. */
export const WORKER_ROLES = ['render', 'callbacks'] as const;
export type WorkerRole = (typeof WORKER_ROLES)[number];

/** Completion callbacks: seeing jobs end, and delivering what was registered for them. */
export interface CallbackSettings {
  /**
   * THUMBS_CALLBACK_PRIVATE_HOSTS: `host:port` entries callbacks may reach at loopback, private or
   * reserved addresses (the API reads the same variable when it accepts a callbackURL).
   */
  privateHosts: MediaHost[];
  /** Per attempt: connect, send, and the answer's head (THUMBS_CALLBACK_TIMEOUT_MS, 5 s). */
  timeoutMs: number;
  /** Retries after the first attempt, counted from it (THUMBS_CALLBACK_RETRY_DELAYS_MS; the contract's 10 s, 1 min, 3 min, 10 min). */
  retryDelaysMs: number[];
  /** Deliveries this process sends side by side (THUMBS_CALLBACK_CONCURRENCY). */
  concurrency: number;
  /** Failed deliveries stay visible (dashboard) this long (THUMBS_CALLBACK_KEEP_FAILED_SECONDS). */
  keepFailedSeconds: number;
  /** PAWLINK_SECRETS_KEY as given (webhook secrets are sealed with it); '' when unset. */
  secretsKey: string;
}

/**
 * The worker's configuration. It reaches every worker thread through `workerData`, so it stays a
 * plain object that the structured clone copies whole (no functions, no class instances).
 * Thumbnails go to contracts' `thumbnailsDir(mediaDir)`.
 */
export interface ThumbsWorkerConfig extends BaseConfig {
  board: BoardConfig;
  worker: WorkerSettings;
  /** THUMBS_WORKER_ROLES (default both): scale renders and callback deliveries apart. */
  roles: WorkerRole[];
  callbacks: CallbackSettings;
}

/** The shared variables plus the BOARD_, WORKER_ and THUMBS_ ones; a bad value names its variable. */
export function loadThumbsWorkerConfig(env: Env, cwd = process.cwd()): ThumbsWorkerConfig {
  const board = loadBoardConfig(env);
  const downloadHosts = readDownloadHosts(env, [board.staticUrl, board.baseUrl]);
  const base = loadBaseConfig(env, cwd);
  return {
    ...base,
    board,
    roles: readRoles(env),
    callbacks: {
      privateHosts: readHostList(env, 'THUMBS_CALLBACK_PRIVATE_HOSTS') ?? [],
      timeoutMs: readInt(env, 'THUMBS_CALLBACK_TIMEOUT_MS', 5000, { min: 100, max: 60_000 }),
      retryDelaysMs: readDelays(env, 'THUMBS_CALLBACK_RETRY_DELAYS_MS', CALLBACK_RETRY_SCHEDULE_MS),
      concurrency: readInt(env, 'THUMBS_CALLBACK_CONCURRENCY', 10, { min: 1, max: 200 }),
      keepFailedSeconds: readInt(env, 'THUMBS_CALLBACK_KEEP_FAILED_SECONDS', 7 * 86_400, { min: 60, max: 90 * 86_400 }),
      secretsKey: readKey256(env, 'PAWLINK_SECRETS_KEY'),
    },
    worker: {
      concurrency: readInt(env, 'WORKER_CONCURRENCY', 1, { min: 1, max: 64 }),
      // A killed worker's job is running again 5–15 s later (lock expiry, then the next check).
      lockDurationMs: readInt(env, 'WORKER_LOCK_DURATION_MS', 10_000, { min: 1_000, max: 600_000 }),
      stalledIntervalMs: readInt(env, 'WORKER_STALLED_INTERVAL_MS', 5_000, { min: 500, max: 600_000 }),
      maxStalledCount: readInt(env, 'WORKER_MAX_STALLED_COUNT', 2, { min: 0, max: 100 }),
      jobTimeoutMs: readInt(env, 'THUMBS_JOB_TIMEOUT_MS', 120_000, { min: 1_000, max: 3_600_000 }),
      maxDownloadBytes: readInt(env, 'THUMBS_MAX_DOWNLOAD_BYTES', 200 * 1024 * 1024, {
        min: 1024,
        max: 10 * 1024 ** 3,
      }),
      downloadTimeoutMs: readInt(env, 'THUMBS_DOWNLOAD_TIMEOUT_MS', 60_000, { min: 100, max: 3_600_000 }),
      downloadHosts,
      downloadPrivateHosts: readPrivateHosts(env, downloadHosts, board.demo ? mediaHostsOf([board.baseUrl]) : []),
      downloadMaxRedirects: readInt(env, 'THUMBS_DOWNLOAD_MAX_REDIRECTS', 3, { min: 0, max: 10 }),
      tmpDir: path.resolve(cwd, readString(env, 'THUMBS_TMP_DIR', os.tmpdir())),
      ffmpegPath: readString(env, 'FFMPEG_PATH', 'ffmpeg'),
      ffprobePath: readString(env, 'FFPROBE_PATH', 'ffprobe'),
      health: {
        // Where the services listen unless said otherwise (compose: 0.0.0.0 for the orchestrator's probes).
        host: readString(env, 'WORKER_HEALTH_HOST', base.host),
        port: readString(env, 'WORKER_HEALTH_PORT', '') === '' ? null : readPort(env, 'WORKER_HEALTH_PORT', 0),
      },
      metricsPort: readPortOrOff(env, 'WORKER_METRICS_PORT', null),
      limits: {
        maxInputPixels: readInt(env, 'THUMBS_MAX_INPUT_PIXELS', 100_000_000, { min: 1, max: 1_000_000_000 }),
        maxFrames: readInt(env, 'THUMBS_MAX_FRAMES', 60, { min: 1, max: 1000 }),
        maxDurationSeconds: readInt(env, 'THUMBS_MAX_DURATION_SECONDS', 3, { min: 1, max: 60 }),
        size: readInt(env, 'THUMBS_SIZE', 320, { min: 16, max: 2048 }),
        fps: readInt(env, 'THUMBS_FPS', 10, { min: 1, max: 50 }),
      },
    },
  };
}

/** THUMBS_WORKER_ROLES: a comma-separated subset of WORKER_ROLES, at least one; unset, all. */
function readRoles(env: Env): WorkerRole[] {
  const value = readString(env, 'THUMBS_WORKER_ROLES', WORKER_ROLES.join(','));
  const roles = [...new Set(value.split(',').map((entry) => entry.trim()))];
  const stray = roles.find((role) => !(WORKER_ROLES as readonly string[]).includes(role));
  if (stray !== undefined || roles.length === 0)
    throw new ConfigError(
      'THUMBS_WORKER_ROLES',
      `must list ${WORKER_ROLES.join(' and/or ')} separated by commas, got "${value}"`,
    );
  return roles as WorkerRole[];
}

/** Increasing delays in ms, comma-separated, at least one; unset, `fallback`. */
function readDelays(env: Env, name: string, fallback: readonly number[]): number[] {
  const value = readString(env, name, '');
  if (value === '') return [...fallback];
  const delays = value.split(',').map((entry) => Number(entry.trim()));
  const valid = delays.every(
    (delay, i) => Number.isInteger(delay) && delay >= 0 && delay <= 86_400_000 && (i === 0 || delay > delays[i - 1]!),
  );
  if (!valid || delays.length > 20)
    throw new ConfigError(
      name,
      `must be up to 20 increasing whole numbers of milliseconds separated by commas, got "${value}"`,
    );
  return delays;
}

/** THUMBS_DOWNLOAD_HOSTS; unset, the hosts of the board's URLs. */
const readDownloadHosts = (env: Env, boardUrls: string[]): MediaHost[] =>
  readHostList(env, 'THUMBS_DOWNLOAD_HOSTS') ?? mediaHostsOf(boardUrls);

/**
 * THUMBS_DOWNLOAD_PRIVATE_HOSTS: each must be one of the download hosts, or it could never apply.
 * Unset: none, except the demo board on loopback (`BOARD_URL=demo`).
 */
function readPrivateHosts(env: Env, downloadHosts: MediaHost[], fallback: MediaHost[]): MediaHost[] {
  const hosts = readHostList(env, 'THUMBS_DOWNLOAD_PRIVATE_HOSTS') ?? fallback;
  const stray = hosts.find(
    (host) => !downloadHosts.some((known) => known.hostname === host.hostname && known.port === host.port),
  );
  if (stray)
    throw new ConfigError(
      'THUMBS_DOWNLOAD_PRIVATE_HOSTS',
      `must name hosts the worker downloads from (THUMBS_DOWNLOAD_HOSTS), got "${stray.hostname}${stray.port === null ? '' : `:${stray.port}`}"`,
    );
  return hosts;
}
