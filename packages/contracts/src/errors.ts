/**
 * The one error registry of docs/api.md §1 and §5: every code the services can answer with,
 * its HTTP status, a stable name and its default human message.
 */
export interface ErrorDefinition {
  readonly code: number;
  readonly status: number;
  readonly message: string;
  /** Other HTTP statuses docs/api.md gives this code (1015: 414 for the request target, 431 for the header fields). */
  readonly otherStatuses?: readonly number[];
  /** Seconds a client is told to wait (`Retry-After`) when no route says better; every 503 has it. */
  readonly retryAfterSeconds?: number;
  /** No longer raised; kept so the number is never given another meaning. */
  readonly retired?: true;
}

const define = <T extends Record<string, ErrorDefinition>>(table: T): T => table;

export const Errors = define({
  INTERNAL_ERROR: {
    code: 0,
    status: 500,
    message: 'There was an internal error while attempting to perform that action.',
  },
  RATE_LIMITED_ROUTE: { code: 1000, status: 429, message: 'You have been rate limited on this route.' },
  RATE_LIMITED_GLOBAL: { code: 1001, status: 429, message: 'You have been rate limited globally.' },
  READ_ONLY: {
    code: 1003,
    status: 503,
    message: 'This service is in read-only mode; try again later.',
    retryAfterSeconds: 60,
  },
  /** The circuits probe twice a second: a client is asked to wait two. */
  DEPENDENCY_UNAVAILABLE: {
    code: 1004,
    status: 503,
    message: 'A service this request needs is unavailable right now; try again shortly.',
    retryAfterSeconds: 2,
  },
  INVALID_API_KEY: { code: 1010, status: 401, message: 'Invalid API key.' },
  INACTIVE_API_KEY: { code: 1011, status: 401, message: 'This API key is inactive.' },
  DISABLED_API_KEY: { code: 1012, status: 403, message: 'This API key has been disabled.' },
  API_KEY_REQUIRED: { code: 1013, status: 401, message: 'An API key is required to use this endpoint.' },
  UNSUPPORTED_BODY_ENCODING: {
    code: 1014,
    status: 415,
    message:
      'The request body is in an encoding or charset this service does not decode: send UTF-8, uncompressed or compressed with gzip, deflate or br.',
  },
  REQUEST_HEAD_TOO_LARGE: {
    code: 1015,
    status: 431,
    otherStatuses: [414],
    message:
      'The request head is too large: at most 8 KiB of request target (path and query) and 16 KiB of header fields.',
  },
  REQUEST_TIMEOUT: { code: 1016, status: 408, message: 'The request was not received in time.' },
  UNKNOWN_BODY_FIELD: { code: 1017, status: 400, message: 'The request body has a field this endpoint does not take.' },
  MISSING_FLAG: { code: 1022, status: 403, message: 'Your API key does not have access to this service or endpoint.' },
  CROSS_SITE_REQUEST: { code: 1023, status: 403, message: 'Cross-site requests to the admin pages are refused.' },
  UNKNOWN_ROUTE: { code: 1024, status: 404, message: 'Unknown route.' },
  METHOD_NOT_ALLOWED: { code: 1025, status: 405, message: 'Method not allowed on this route.' },
  MALFORMED_BODY: { code: 1026, status: 400, message: 'Malformed request body.' },
  BODY_TOO_LARGE: { code: 1027, status: 413, message: 'Request body too large.' },

  CATEGORY_NOT_FOUND: { code: 1030, status: 404, message: 'Category not found.' },
  IMAGE_NOT_FOUND: { code: 1040, status: 404, message: 'Image not found.' },
  NO_RESULTS: { code: 1041, status: 404, message: 'No images were found under the size limit.' },
  AMOUNT_TOO_LOW: { code: 1051, status: 400, message: 'Amount must be at least 1.' },
  AMOUNT_TOO_HIGH: { code: 1052, status: 400, message: 'Amount must be at most 5.' },
  BULK_INVALID_BODY: {
    code: 1054,
    status: 400,
    message: 'Invalid bulk request body: expected an object of category keys to positive integer counts.',
  },
  BULK_INVALID_CATEGORY: { code: 1055, status: 400, message: 'Invalid category in bulk request.' },
  BULK_OVER_LIMIT: { code: 1056, status: 400, message: 'Bulk request total is above your limit.' },
  INVALID_QUERY_VALUE: { code: 1057, status: 400, message: 'Invalid query value.' },
  /** The original answered this with 1057, which the contract gives to invalid query values. */
  SFW_ONLY_KEY: { code: 1058, status: 403, message: 'This API key may only use SFW categories.' },

  THUMBNAIL_ERROR: { code: 1060, status: 500, message: 'Thumbnail generation failed.' },
  INVALID_POST_ID: { code: 1062, status: 404, message: 'Invalid post id.' },
  INVALID_MD5: { code: 1063, status: 404, message: 'Invalid MD5.' },
  INVALID_TYPE: { code: 1064, status: 404, message: 'Invalid type; expected gif, png, webp or mp4.' },
  THUMBNAIL_TIMEOUT: { code: 1065, status: 408, message: 'Thumbnail generation timed out.' },
  CHECK_NOT_FOUND: { code: 1066, status: 404, message: 'No thumbnail job was found for that MD5 and type.' },
  BOARD_UNAVAILABLE: {
    code: 1067,
    status: 503,
    message: 'The image board cannot be reached right now; try again later.',
    retryAfterSeconds: 5,
  },
  /** A client error, not a failure of ours: the job learned that no post on the board has that md5. */
  POST_NOT_ON_BOARD: { code: 1068, status: 404, message: 'The post was not found on the board.' },
  /** The board is fine: this API key or client IP holds its share of the board's request budget. */
  BOARD_SHARE_USED: {
    code: 1069,
    status: 429,
    message: 'You are using your share of the image board budget; try again after Retry-After seconds.',
  },

  CODE_TOO_LONG: { code: 1070, status: 422, message: 'The provided code is too long (maximum 50 characters).' },
  INVALID_CODE: {
    code: 1071,
    status: 422,
    message: 'The provided code contains invalid characters (allowed: A-Z, a-z, 0-9 and -).',
  },
  CODE_IN_USE: { code: 1072, status: 409, message: 'The provided code is already in use.' },
  INVALID_URL: { code: 1073, status: 422, message: 'The provided url is invalid.' },
  CREDIT_TOO_LONG: { code: 1074, status: 422, message: 'The provided credit is too long (maximum 50 characters).' },
  SHORT_URL_NOT_FOUND: { code: 1075, status: 404, message: 'No short url was found with that code.' },
  MANAGEMENT_CODE_REQUIRED: {
    code: 1076,
    status: 401,
    message: 'An authorization code is required to modify this short url; it was given at creation.',
  },
  NO_MANAGEMENT_CODE: {
    code: 1077,
    status: 403,
    message: 'This short url has no management code, so it cannot be changed.',
  },
  MANAGEMENT_CODE_MISMATCH: { code: 1078, status: 401, message: 'The management code does not match.' },
  /** Retired: editable entries are never shared, so an edit can no longer collide with another entry's url. */
  URL_IN_USE: { code: 1079, status: 409, message: 'That url is already used by another short url.', retired: true },
  NO_CHANGES: { code: 1080, status: 400, message: 'No changes were provided.' },
  INVALID_EXPIRES_AT: {
    code: 1081,
    status: 422,
    message:
      'The provided expiresAt is invalid: expected an ISO 8601 date and time with a time zone (e.g. 2030-01-31T12:00:00Z), in the future, or null.',
  },
  INVALID_MAX_VISITS: {
    code: 1082,
    status: 422,
    message: 'The provided maxVisits is invalid: expected a whole number from 1 to 2147483647, or null.',
  },
  SHORT_URL_EXPIRED: { code: 1083, status: 410, message: 'This short url has expired.' },
  BULK_CREATE_INVALID: {
    code: 1084,
    status: 400,
    message:
      'Invalid bulk create: expected a body {links: [...]} of 1 to 100 objects, each {url, code?, credit?, expiresAt?, maxVisits?}.',
  },
  /** Scheme, length or address: nothing is queued for a PUT whose callback would be refused. */
  CALLBACK_URL_REFUSED: {
    code: 1085,
    status: 422,
    message:
      'The callbackURL is refused: it must be an http or https URL of at most 2048 characters on a public address.',
  },
  /**
   * A bulk create with more items than the key's `shortener.create` bucket allows in a whole
   * window: it could never fit, so it is refused at once (never a 429 whose Retry-After cannot be
   * met). The message and `extra` name the bucket, its limit and the most one request can send.
   */
  BULK_ABOVE_RATE_LIMIT: {
    code: 1086,
    status: 422,
    message: "The request has more items than the key's rate-limit bucket allows in a whole window; nothing was done.",
  },
  INVALID_TAGS: {
    code: 1087,
    status: 422,
    message:
      'The provided tags are invalid: expected a list of at most 10 tags, each 1 to 32 characters of a-z, 0-9 and -.',
  },
  INVALID_PASSWORD: {
    code: 1088,
    status: 422,
    message:
      'The provided password is invalid: expected a string of 8 to 128 characters, or null to remove it (PATCH).',
  },
  /** The password form of a protected link (an HTML page saying so, never JSON). */
  LINK_PASSWORD_WRONG: { code: 1089, status: 401, message: 'Wrong password.' },
  /** Wrong passwords of one address for one link, past 10 a minute (an HTML page, with Retry-After). */
  LINK_PASSWORD_TRIES: {
    code: 1090,
    status: 429,
    message: 'Too many wrong passwords for this link from your address.',
  },
  /** The message names the rule (0-based) and the field refused: `rules[2].when.device …`. */
  INVALID_RULES: {
    code: 1091,
    status: 400,
    message:
      'The provided rules are invalid: expected a list of at most 20 {when, url, forwardQuery?}, each condition known and well-formed.',
  },
});

export type ErrorName = keyof typeof Errors;

/** Looks an error up by its number; undefined for numbers outside the registry. */
export function errorByCode(code: number): (ErrorDefinition & { name: ErrorName }) | undefined {
  for (const [name, def] of Object.entries(Errors)) {
    if (def.code === code) return { ...def, name: name as ErrorName };
  }
  return undefined;
}

/** The failure body every service answers with. */
export interface ErrorBody {
  success: false;
  error: string;
  code: number;
  extra?: Record<string, unknown>;
  info?: Record<string, unknown>;
  status?: string;
}
