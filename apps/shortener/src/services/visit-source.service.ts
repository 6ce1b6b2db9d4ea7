import type { VisitCountryRepository } from '../repositories/visit-country.repository.js';
import { DIMENSIONS, fieldOf } from '../domain/visit-breakdown.rules.js';
import { AgentSummaries, normaliseReferrerHost, UNKNOWN } from '../domain/visit-source.rules.js';

export interface VisitSourceDeps {
  countries: Pick<VisitCountryRepository, 'countryOf'>;
}

/**
 * What a visit's raw source (as the redirect tallied it) counts as in the breakdown: one field per
 * dimension (`r:<host>`, `c:<country>`, `b:<browser>`, `o:<os>`, `d:<device>`). Each part of the
 * source decides its own dimensions, so each is described on its own: the tally adds up visits per
 * referrer host, user agent and address, and describes each distinct one once a flush. Runs in the
 * tally's flush, never on the redirect: user agents are parsed and countries looked up there,
 * memoised.
 */
export class VisitSourceService {
  private readonly agents = new AgentSummaries();

  constructor(private readonly deps: VisitSourceDeps) {}

  /** The referrer field of a raw referrer host. */
  referrer(rawReferrerHost: string): string {
    return fieldOf(DIMENSIONS.referrer, normaliseReferrerHost(rawReferrerHost));
  }

  /** The browser, OS and device fields of a user agent. */
  agent(userAgent: string): string[] {
    const agent = this.agents.of(userAgent);
    return [
      fieldOf(DIMENSIONS.browser, agent.browser),
      fieldOf(DIMENSIONS.os, agent.os),
      fieldOf(DIMENSIONS.device, agent.device),
    ];
  }

  /** The country field of an address (never stored: only the field leaves the process). */
  country(address: string): string {
    const country = address === '' ? null : this.deps.countries.countryOf(address);
    return fieldOf(DIMENSIONS.country, country ?? UNKNOWN);
  }
}
