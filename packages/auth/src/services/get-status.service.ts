import type { ApiKeyFlag, ServiceName } from '@pawlink/contracts';
import type { ApiKey } from '../db/entities/api-key.entity.js';

/** One bucket's state as `GET /status` shows it; limit and remaining are null when unlimited. */
export interface RateLimitStatus {
  limit: number | null;
  remaining: number | null;
  /** Unix seconds at which the open window ends; null while no window is open. */
  reset: number | null;
  /** Seconds until then; null while no window is open. */
  resetAfter: number | null;
  windowSeconds: number;
}

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

/** The request a status is asked for: its key (undefined when anonymous), and what else the limits and sections read. */
export interface StatusRequest {
  key: ApiKey | undefined;
}

/**
 * One more named part of `GET /status`'s data (e.g. a key's usage): its name and how to build it.
 * A section whose value is undefined is left out.
 */
export interface StatusSection<R extends StatusRequest = StatusRequest> {
  name: string;
  /** The section's value, or a promise of it. */
  build(request: R): unknown;
}

export interface GetStatusDeps<R extends StatusRequest> {
  service: ServiceName;
  readOnly: { readonly enabled: boolean };
  /** What the request's key (or client IP) has left in each bucket, counting nothing. */
  limits(request: R): Promise<Record<string, RateLimitStatus>>;
  sections: readonly StatusSection<R>[];
}

/** `GET /status` (docs/api.md §1): the service's read-only state, the key (if any) and its limits, then any extra sections. */
export async function getStatus<R extends StatusRequest>(deps: GetStatusDeps<R>, request: R): Promise<ServiceStatus> {
  const data: ServiceStatus = {
    service: deps.service,
    readOnly: deps.readOnly.enabled,
    key: request.key ? describeKey(request.key) : null,
    limits: await deps.limits(request),
  };
  for (const section of deps.sections) {
    const value = await section.build(request);
    if (value !== undefined) data[section.name] = value;
  }
  return data;
}
