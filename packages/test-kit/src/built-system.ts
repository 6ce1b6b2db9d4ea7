import { admin, createKey, type ServiceName } from './processes.js';

/** The three HTTP services a whole-system suite starts. */
export const SERVICE_NAMES: readonly ServiceName[] = ['shortener', 'images', 'thumbs'];

/** Runs `bin/admin` and resolves with its stdout; throws with its output when it exits with another code than 0. */
export async function adminOrThrow(env: Record<string, string>, args: string[]): Promise<string> {
  const result = await admin(env, args);
  if (result.code !== 0)
    throw new Error(`bin/admin ${args.join(' ')} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** Where a whole-system suite runs the built processes: its own databases, directories and fake board. */
export interface BuiltSystemPlaces {
  /** A MariaDB on 127.0.0.1 (user root, no password): DB_PORT. */
  dbPort: number;
  dbPrefix: string;
  redisUrl: string;
  redisPrefix: string;
  mediaDir: string;
  /** MEDIA_URL is `<mediaBaseUrl>/thumbs`, IMAGES_MEDIA_URL `<mediaBaseUrl>/images`. */
  mediaBaseUrl: string;
  board: { url: string; staticUrl: string };
  /** THUMBS_TMP_DIR of the workers. */
  workerTmpDir: string;
  logLevel: string;
}

/** The environment of the built services, the workers and `bin/admin` in `places`. */
export function builtSystemEnv(places: BuiltSystemPlaces): Record<string, string> {
  return {
    DB_TYPE: 'mariadb',
    DB_HOST: '127.0.0.1',
    DB_PORT: String(places.dbPort),
    DB_USER: 'root',
    DB_PASSWORD: '',
    DB_PREFIX: places.dbPrefix,
    REDIS_URL: places.redisUrl,
    REDIS_PREFIX: places.redisPrefix,
    MEDIA_DIR: places.mediaDir,
    MEDIA_URL: `${places.mediaBaseUrl}/thumbs`,
    IMAGES_MEDIA_URL: `${places.mediaBaseUrl}/images`,
    BOARD_URL: places.board.url,
    BOARD_STATIC_URL: places.board.staticUrl,
    // The fake board has no budget to protect; the default 2/s would be the bottleneck of the load.
    BOARD_REQUESTS_PER_SECOND: '50',
    THUMBS_TMP_DIR: places.workerTmpDir,
    // The stand-in board serves its files from loopback, which the worker refuses unless told.
    THUMBS_DOWNLOAD_PRIVATE_HOSTS: new URL(places.board.staticUrl).host,
    LOG_LEVEL: places.logLevel,
  };
}

/** `bin/admin migrate`, then an API key named `name` for the shortener, thumbs and bulk images, without rate limits. */
export async function migrateWithUnlimitedKey(env: Record<string, string>, name: string): Promise<string> {
  await adminOrThrow(env, ['migrate']);
  return createKey(env, 'shortener,thumbs,images_bulk', ['--rate-limit-route', '0', '--rate-limit-global', '0'], name);
}
