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
