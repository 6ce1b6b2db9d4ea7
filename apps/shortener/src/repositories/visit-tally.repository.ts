import { DayTally, ReusableCounts, type LogSink } from '@pawlink/service-kit';
import { boundPendingValues, DIMENSIONS, fieldOf, STORED_VALUES_PER_DAY } from '../domain/visit-breakdown.rules.js';
import type { PendingVisitsRepository, VisitCount } from './pending-visits.repository.js';

/** Turns each part of a visit's raw source into its breakdown fields, e.g. `c:DE`. */
export interface DescribeVisitSource {
  /** The referrer field of a raw referrer host. */
  referrer(rawReferrerHost: string): string;
  /** The browser, OS and device fields of a user agent. */
  agent(userAgent: string): readonly string[];
  /** The country field of an address. */
  country(address: string): string;
}

export interface VisitTallyOptions {
  pending: Pick<PendingVisitsRepository, 'add'>;
  /** How often the tally goes to Redis. */
  flushMs: number;
  logger: LogSink;
  /** When given, each visit's source is tallied too and described by it at flush time; else only counts. */
  describe?: DescribeVisitSource;
  now?: () => number;
}

/**
 * One code's counted visits since the last flush, in memory; with the breakdown on, also per
 * referrer host, per user agent and per address. Each dimension depends on one of them only, so
 * they are counted apart: a flush describes each distinct host, agent and address once, and each
 * breakdown's total is still the code's visits. Kept from flush to flush and emptied in place
 * (DayTally's `reset`), so a code visited every second allocates nothing for its tally.
 */
interface CodeVisits {
  visits: number;
  /** Visits by the redirect rule that decided them (`0`…`19`, `default`): links with rules only, breakdown on or off. */
  rules: ReusableCounts<string> | undefined;
  sources:
    | {
        referrerHosts: ReusableCounts<string>;
        userAgents: ReusableCounts<string>;
        addresses: ReusableCounts<string>;
      }
    | undefined;
}

/**
 * This instance's counted visits, tallied in memory per UTC day and sent to Redis every `flushMs`
 * (service-kit's DayTally: a failed chunk is retried, added once; at most `flushMs` of visits are
 * lost when the process dies without SIGTERM). `add` is a few Map updates: the redirect hot path
 * pays nothing more, and a code visited again after a flush counts into the accumulators it had. With the breakdown on, each visit is also counted by its raw referrer host,
 * user agent and address; the flush describes each distinct one once (host normalised, user agent
 * parsed, country looked up, the last two memoised), so what reaches Redis holds countries, never
 * addresses.
 */
export class VisitTallyRepository extends DayTally<string, CodeVisits, VisitCount> {
  private readonly withSource: boolean;

  constructor({ pending, flushMs, logger, describe, now }: VisitTallyOptions) {
    super({
      empty: () => ({
        visits: 0,
        rules: undefined,
        sources:
          describe === undefined
            ? undefined
            : {
                referrerHosts: new ReusableCounts(),
                userAgents: new ReusableCounts(),
                addresses: new ReusableCounts(),
              },
      }),
      // Each code, day and field once: the breakdown's fields are added up per code below, and the
      // tally holds a code once per day. So nothing is merged at flush time.
      collect: (day, code, { visits, sources, rules }, into) => {
        const first = into.length;
        into.push({ day, code, field: '', visits });
        rules?.forEach((rule, visits) => into.push({ day, code, field: fieldOf(DIMENSIONS.rule, rule), visits }));
        if (describe === undefined || sources === undefined) return;
        // Many addresses share a country, many agents a browser: added up here, one count per field.
        const fields = new Map<string, number>();
        const count = (field: string, visits: number): void => {
          fields.set(field, (fields.get(field) ?? 0) + visits);
        };
        sources.referrerHosts.forEach((host, visits) => count(describe.referrer(host), visits));
        sources.userAgents.forEach((userAgent, visits) => {
          for (const field of describe.agent(userAgent)) count(field, visits);
        });
        sources.addresses.forEach((address, visits) => count(describe.country(address), visits));
        for (const [field, visits] of fields) into.push({ day, code, field, visits });
        // Only a code with more fields than a dimension may hold can have a dimension to fold.
        if (into.length - first > STORED_VALUES_PER_DAY) into.push(...boundPendingValues(into.splice(first)));
      },
      reset: (visits) => {
        visits.visits = 0;
        visits.rules?.reset();
        if (visits.sources === undefined) return;
        visits.sources.referrerHosts.reset();
        visits.sources.userAgents.reset();
        visits.sources.addresses.reset();
      },
      keyOf: (count) => count.code,
      send: (chunkId, counts) => pending.add(chunkId, counts),
      flushMs,
      logger,
      what: 'visit counts',
      ...(now ? { now } : {}),
    });
    this.withSource = describe !== undefined;
  }

  /** One counted visit of `code`, now, from the given raw source (kept only with the breakdown on) and the rule that decided it (links with rules). */
  add(code: string, rawReferrerHost = '', userAgent = '', address = '', rule?: string): void {
    const visits = this.at(code);
    visits.visits += 1;
    if (rule !== undefined) (visits.rules ??= new ReusableCounts()).add(rule);
    if (!this.withSource || visits.sources === undefined) return;
    const { referrerHosts, userAgents, addresses } = visits.sources;
    referrerHosts.add(rawReferrerHost);
    userAgents.add(userAgent);
    addresses.add(address);
  }
}
