import type { ApiKeyFlag, ServiceName } from '@pawlink/contracts';
import type { ApiKey } from '../db/entities/api-key.entity.js';
import type { RateLimitStatus } from '../guards/rate-limit.guard.js';

/** What `GET /status` tells a client about its own key: never the key itself or its hash. */
export interface KeyStatus {
  id: number;
  name: string;
  flags: ApiKeyFlag[];
  active: boolean;
  disabled: boolean;
  disabledReason: string | null;
  bulkLimit: number;
}

/** The `data` of `GET /status`; sections added later (e.g. `usage`) sit beside these. */
export interface ServiceStatus {
  service: ServiceName;
  readOnly: boolean;
  /** null for an anonymous request. */
  key: KeyStatus | null;
  /** Every rate-limit bucket of the service, and `global`, for the key (or the client IP). */
  limits: Record<string, RateLimitStatus>;
  [section: string]: unknown;
}

export const describeKey = (key: ApiKey): KeyStatus => ({
  id: key.id,
  name: key.name,
  flags: [...key.flags],
  active: key.active,
  disabled: key.disabled,
  disabledReason: key.disabledReason,
  bulkLimit: key.bulkLimit,
});
