/**
 * Policy as data: what the shortener refuses, reviewable in one diff.
 */

/**
 * Codes that name our own routes (or may one day) count as in use (409 1072), compared
 * case-insensitively so no entry can look like a route to a human either.
 */
export const RESERVED_CODES: ReadonlySet<string> = new Set([
  'create',
  'delete',
  'online',
  'metrics',
  'check',
  'health',
  'healthz',
  'ready',
  'readyz',
  'status',
  'api',
  'admin',
  'static',
  'assets',
  'favicon',
  'robots',
  'preview',
  'edit',
  'openapi',
  'links',
  'tags',
  'console',
]);

const RESERVED = new RegExp(`^(?:${[...RESERVED_CODES].join('|')})$`, 'i');

/** Whether `code` (ASCII, as every code is) is reserved; a regex, so the warm redirect allocates nothing for it. */
export const isReservedCode = (code: string): boolean => RESERVED.test(code);

/** Target URL schemes we redirect to. */
export const ALLOWED_PROTOCOLS: ReadonlySet<string> = new Set(['http:', 'https:', 'ftp:']);

/**
 * Host names that resolve to the visitor's own machine or private network by convention:
 * the name itself and anything under it.
 */
export const BLOCKED_HOST_NAMES: readonly string[] = [
  'localhost',
  'local',
  'internal',
  'localdomain',
  'home.arpa',
  'intranet',
  'lan',
];

// Which literal addresses are allowed (public unicast only) is `isPublicIpAddress` in @pawlink/address-safety,
// shared with the thumbnail worker's download checks.
