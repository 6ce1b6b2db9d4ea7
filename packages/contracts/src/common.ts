/** Services with their own base URL, read-only switch and metrics. */
export const SERVICES = ['shortener', 'images', 'thumbs'] as const;
export type ServiceName = (typeof SERVICES)[number];

/**
 * Flags an API key can carry; each opens one service or endpoint (`admin`: the operator pages, e.g.
 * the queue dashboard), except `sfw_only`, which narrows a key to the images of SFW categories.
 */
export const API_KEY_FLAGS = ['shortener', 'thumbs', 'images_bulk', 'admin', 'sfw_only'] as const;
export type ApiKeyFlag = (typeof API_KEY_FLAGS)[number];

export interface OnlineResponse {
  success: true;
  uptime: number;
  readOnly?: boolean;
}

/** API.md §6.1: the longest request target (path and query) a service reads; longer is 414 code 1015. */
export const REQUEST_TARGET_LIMIT_BYTES = 8 * 1024;
/** API.md §6.1: the most header field bytes (names and values, in all) a service reads; more is 431 code 1015. */
export const HEADER_FIELDS_LIMIT_BYTES = 16 * 1024;
