import type { AccessGuards } from '@pawlink/auth';
import { defineEndpoint, type ReadOnlySwitch } from '@pawlink/service-kit';
import type { ShortenerConfig } from '../config.js';
import type { ShortenerContainer } from '../container.js';
import type { LimitLookups } from '../guards/lookup-limit.guard.js';

/** What the shortener's endpoints are made from (app.ts gives it once, to every endpoint). */
export interface ShortenerEndpointDeps {
  /** The app's settings; also what the fields' parsers read (SHORTENER_PRIVATE_TARGET_PREFIXES). */
  config: ShortenerConfig;
  services: ShortenerContainer;
  guards: AccessGuards;
  readOnly: ReadOnlySwitch;
  /** The per-IP `shortener.lookup` limit of the public paths, for what memory cannot answer. */
  limitLookups: LimitLookups;
}

/** Declares one of the shortener's endpoints (docs/adr/0015). */
export const shortenerEndpoint = defineEndpoint<ShortenerEndpointDeps>();

/** The tag of every short-url operation in the document. */
export const SHORT_URL_TAGS = ['short urls'];
