import type { VisitCountryRepository } from '../repositories/visit-country.repository.js';
import { DIMENSIONS, fieldOf } from './visit-breakdown.rules.js';
import { AgentSummaries, normaliseReferrerHost, UNKNOWN } from './visit-source.rules.js';

export interface VisitSourceDeps {
  countries: Pick<VisitCountryRepository, 'countryOf'>;
}

/**
 * What a visit's raw source (as the redirect tallied it) counts as in the breakdown: one field per
 * dimension (`r:<host>`, `c:<country>`, `b:<browser>`, `o:<os>`, `d:<device>`). Runs in the tally's
 * flush, never on the redirect: user agents are parsed and countries looked up there, memoised.
 */
export class VisitSourceService {
  private readonly agents = new AgentSummaries();

  constructor(private readonly deps: VisitSourceDeps) {}

  describe(rawReferrerHost: string, userAgent: string, address: string): string[] {
    const agent = this.agents.of(userAgent);
    const country = address === '' ? null : this.deps.countries.countryOf(address);
    return [
      fieldOf(DIMENSIONS.referrer, normaliseReferrerHost(rawReferrerHost)),
      fieldOf(DIMENSIONS.country, country ?? UNKNOWN),
      fieldOf(DIMENSIONS.browser, agent.browser),
      fieldOf(DIMENSIONS.os, agent.os),
      fieldOf(DIMENSIONS.device, agent.device),
    ];
  }
}
