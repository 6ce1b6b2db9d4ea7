import type { ServiceName } from '@pawlink/contracts';
import { onlyMethods, type ReadOnlySwitch } from '@pawlink/service-kit';
import type { Express, RequestHandler } from 'express';
import { getStatusHandler, type GetStatusHandlerDeps, type StatusContext } from '../handlers/get-status.handler.js';
import type { StatusSection } from '../services/get-status.service.js';
import { STATUS_USAGE_DAYS, type KeyUsageService } from '../services/key-usage.service.js';

/** A service's counted key usage, as far as `/status` reads it. */
interface StatusUsage {
  service: string;
  reader: Pick<KeyUsageService, 'ofKey'>;
}

/** What the route takes of a service's access guards (`AccessGuards`). */
export interface StatusGuards {
  optionalKey: () => RequestHandler;
  rateLimit: (bucket: 'status') => RequestHandler;
  limits: GetStatusHandlerDeps['limits'];
  usage?: StatusUsage;
}

/** `usage`: the key's own requests to this service, today and the last STATUS_USAGE_DAYS days; absent when anonymous. */
const usageSection = (usage: StatusUsage): StatusSection<StatusContext> => ({
  name: 'usage',
  build: ({ key }) =>
    key ? usage.reader.ofKey(key.id, { service: usage.service, dayCount: STATUS_USAGE_DAYS }) : undefined,
});

export interface GetStatusRouteDeps {
  service: ServiceName;
  guards: StatusGuards;
  readOnly: Pick<ReadOnlySwitch, 'enabled'>;
  /** Extra parts of the answer beside service, readOnly, key and limits. */
  sections?: readonly StatusSection<StatusContext>[];
}

/**
 * GET /status on every service (docs/api.md §1): public; a presented key must be valid
 * (1010/1011/1012) and is then described, with its usage when the guards count it. Guards: key
 * (optional) → rate limit (`status`). Register it before any route whose pattern would take
 * `/status` (a short code, an image category, a post id).
 */
export function registerGetStatusRoute(app: Express, deps: GetStatusRouteDeps): void {
  const { guards } = deps;
  const sections = [...(guards.usage ? [usageSection(guards.usage)] : []), ...(deps.sections ?? [])];
  app.get(
    '/status',
    guards.optionalKey(),
    guards.rateLimit('status'),
    getStatusHandler({ service: deps.service, readOnly: deps.readOnly, limits: guards.limits, sections }),
  );
  app.all('/status', onlyMethods('GET', 'HEAD'));
}
