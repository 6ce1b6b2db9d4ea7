import type { ServiceName } from '@pawlink/contracts';
import type { ReadOnlySwitch } from '@pawlink/service-kit';
import type { Request, RequestHandler, Response } from 'express';
import type { ApiKey } from '../db/entities/api-key.entity.js';
import { apiKeyOf } from '../guards/api-key.guard.js';
import {
  getStatus,
  type GetStatusDeps,
  type RateLimitStatus,
  type StatusSection,
} from '../services/get-status.service.js';

/** What a status section is given: the request, and its key (undefined when anonymous). */
export interface StatusContext {
  req: Request;
  res: Response;
  key: ApiKey | undefined;
}

export interface GetStatusHandlerDeps {
  service: ServiceName;
  readOnly: Pick<ReadOnlySwitch, 'enabled'>;
  limits: (req: Request, res: Response) => Promise<Record<string, RateLimitStatus>>;
  sections?: readonly StatusSection<StatusContext>[];
}

/** GET /status: the request's key, then `getStatus`, never cached by a client or proxy. */
export function getStatusHandler(deps: GetStatusHandlerDeps): RequestHandler {
  const status: GetStatusDeps<StatusContext> = {
    service: deps.service,
    readOnly: deps.readOnly,
    limits: ({ req, res }) => deps.limits(req, res),
    sections: deps.sections ?? [],
  };
  return async (req, res) => {
    const data = await getStatus(status, { req, res, key: apiKeyOf(res) });
    res.setHeader('Cache-Control', 'no-store');
    res.json({ success: true, data });
  };
}
