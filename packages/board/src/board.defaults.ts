// No imports: the board client runs on worker threads, which must not load the service kit.

/** The board settings' defaults, the one place both the configuration and the client take them from. */
export const BOARD_DEFAULTS = {
  /** The board's policy: 2 requests per second across every client. */
  requestsPerSecond: 2,
  timeoutMs: 10_000,
  retries: 2,
} as const;

/** Where the demo board listens (`BOARD_URL=demo`) unless DEMO_BOARD_PORT says otherwise. */
export const DEMO_BOARD_DEFAULT_PORT = 3009;
