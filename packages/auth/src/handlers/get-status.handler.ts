import type { ServiceName } from '@pawlink/contracts';
import type { ReadOnlySwitch } from '@pawlink/service-kit';
import type { Request, RequestHandler, Response } from 'express';
import type { ApiKey } from '../db/entities/api-key.entity.js';
import type { RateLimitStatus } from '../guards/rate-limit.guard.js';
import { apiKeyOf } from '../guards/api-key.guard.js';
import { describeKey, type ServiceStatus } from '../services/key-status.js';

/** What a status section is given: the request's key (undefined when anonymous). */
export interface StatusContext {
  req: Request;
  res: Response;
  key: ApiKey | undefined;
}

/**
 * One more named part of `GET /status`'s data (e.g. a key's usage): its name and how to build it.
 * A section whose value is undefined is left out.
 */
export interface StatusSection {
  name: string;
  /** The section's value, or a promise of it. */
  build(context: StatusContext): unknown;
}

export interface GetStatusDeps {
  service: ServiceName;
  readOnly: Pick<ReadOnlySwitch, 'enabled'>;
  limits: (req: Request, res: Response) => Promise<Record<string, RateLimitStatus>>;
  sections?: readonly StatusSection[];
}

/** GET /status: the service's read-only state, the key (if any) and its limits, then any extra sections. */
export function getStatusHandler(deps: GetStatusDeps): RequestHandler {
  return async (req, res) => {
    const key = apiKeyOf(res);
    const data: ServiceStatus = {
      service: deps.service,
      readOnly: deps.readOnly.enabled,
      key: key ? describeKey(key) : null,
      limits: await deps.limits(req, res),
    };
    for (const section of deps.sections ?? []) {
      const value = await section.build({ req, res, key });
      if (value !== undefined) data[section.name] = value;
    }
    res.setHeader('Cache-Control', 'no-store');
    res.json({ success: true, data });
  };
}
