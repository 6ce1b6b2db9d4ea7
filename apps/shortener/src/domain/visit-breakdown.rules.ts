import type { VisitBreakdown } from '@pawlink/contracts';
import { OTHER, UNKNOWN, type Device } from './visit-source.rules.js';

/**
 * The dimensions of a visit's breakdown, as stored (`short_url_visit_breakdown.dimension`) and as
 * they travel through Redis (`<day>\t<dimension>:<value>`).
 */
export const DIMENSIONS = { referrer: 'r', country: 'c', browser: 'b', os: 'o', device: 'd', rule: 'u' } as const;
/** The `rule` value of a visit no rule decided (the link's own url). */
export const DEFAULT_RULE = 'default';
export type Dimension = (typeof DIMENSIONS)[keyof typeof DIMENSIONS];
const ALL_DIMENSIONS: readonly Dimension[] = Object.values(DIMENSIONS);

export const isDimension = (value: string): value is Dimension => (ALL_DIMENSIONS as readonly string[]).includes(value);

/** A breakdown count's pending field, `<dimension>:<value>` (the plain count of visits has '' instead). */
export const fieldOf = (dimension: Dimension, value: string): string => `${dimension}:${value}`;

/** The dimension and value of a pending field, or null for the plain count ('') or a field of no known dimension. */
export function splitField(field: string): { dimension: Dimension; value: string } | null {
  const colon = field.indexOf(':');
  const dimension = field.slice(0, colon);
  return colon === -1 || !isDimension(dimension) ? null : { dimension, value: field.slice(colon + 1) };
}

/**
 * Values stored per link, UTC day and dimension before new ones are folded into OTHER (countries
 * are not folded: the database names about 250). Answers show fewer (REFERRERS_SHOWN, NAMES_SHOWN),
 * so a value ranked below them on one day can still make the top of the period.
 */
export const STORED_VALUES_PER_DAY = 50;
/** Referring hosts `referrers` names; the rest are OTHER. */
export const REFERRERS_SHOWN = 20;
/** Browsers and OSes `browsers` / `os` name; the rest are OTHER. */
export const NAMES_SHOWN = 10;

/** A dimension's visits by value. */
export type ValueCounts = Map<string, number>;

/** Whether a dimension folds values past STORED_VALUES_PER_DAY into OTHER. */
export const isCapped = (dimension: Dimension): boolean => dimension !== DIMENSIONS.country;

/** Adds `n` visits of `value` to `counts`. */
export function addTo(counts: ValueCounts, value: string, n: number): void {
  counts.set(value, (counts.get(value) ?? 0) + n);
}

/** Most visits first, then by name, so equal counts always come out in one order. */
const byVisits = (a: [string, number], b: [string, number]): number =>
  b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/**
 * The top `shown` values by visits, then OTHER with the rest (OTHER already among the values
 * joins it); values with no visits are left out.
 */
export function foldTop(counts: ValueCounts, shown: number): Array<[string, number]> {
  const ranked = [...counts].filter(([name, n]) => name !== OTHER && n > 0).sort(byVisits);
  let rest = counts.get(OTHER) ?? 0;
  for (const [, n] of ranked.slice(shown)) rest += n;
  const top = ranked.slice(0, shown);
  if (rest > 0) top.push([OTHER, rest]);
  return top;
}

/**
 * Which of a batch's new values get a row of their own for one link, day and dimension that
 * already holds `stored` values: the most visited first, while fewer than STORED_VALUES_PER_DAY are
 * stored; the others are counted as OTHER. Returns value → the value its visits are stored under.
 */
export function admitNewValues(fresh: ValueCounts, stored: number): Map<string, string> {
  const ranked = [...fresh].sort(byVisits);
  const storedAs = new Map<string, string>();
  let slots = Math.max(0, STORED_VALUES_PER_DAY - stored);
  for (const [value] of ranked) {
    if (value === OTHER) storedAs.set(value, OTHER);
    else if (slots > 0) {
      storedAs.set(value, value);
      slots -= 1;
    } else storedAs.set(value, OTHER);
  }
  return storedAs;
}

/**
 * The breakdown `GET /:code/stats` answers for a period of `visits` visits. Each dimension adds
 * up to `visits`: what its counts lack (visits counted before the breakdown existed, or while it
 * was off) is UNKNOWN (referrers, countries) or OTHER (browsers, os, devices).
 */
export function breakdownOf(
  visits: number,
  counts: ReadonlyMap<Dimension, ValueCounts>,
): VisitBreakdown & { rules: Array<{ index: number; visits: number }>; default: number } {
  const of = (dimension: Dimension): ValueCounts => {
    const found = new Map(counts.get(dimension) ?? []);
    const missing = visits - [...found.values()].reduce((sum, n) => sum + n, 0);
    if (missing > 0)
      addTo(found, dimension === DIMENSIONS.referrer || dimension === DIMENSIONS.country ? UNKNOWN : OTHER, missing);
    return found;
  };
  const devices: Record<Device, number> = { desktop: 0, mobile: 0, tablet: 0, other: 0 };
  for (const [name, n] of of(DIMENSIONS.device)) devices[name in devices ? (name as Device) : OTHER] += n;
  return {
    referrers: foldTop(of(DIMENSIONS.referrer), REFERRERS_SHOWN).map(([host, n]) => ({ host, visits: n })),
    countries: [...of(DIMENSIONS.country)]
      .filter(([, n]) => n > 0)
      .sort(byVisits)
      .map(([country, n]) => ({ country, visits: n })),
    browsers: foldTop(of(DIMENSIONS.browser), NAMES_SHOWN).map(([name, n]) => ({ name, visits: n })),
    os: foldTop(of(DIMENSIONS.os), NAMES_SHOWN).map(([name, n]) => ({ name, visits: n })),
    devices,
    ...rulesOf(visits, counts.get(DIMENSIONS.rule)),
  };
}

/**
 * Visits by redirect rule (issue 38): each rule's index with visits, and the rest as `default`
 * (no rule held, a bot, or counted before the link had rules), so both add up to `visits`.
 */
function rulesOf(
  visits: number,
  counts: ValueCounts | undefined,
): { rules: Array<{ index: number; visits: number }>; default: number } {
  const rules: Array<{ index: number; visits: number }> = [];
  for (const [value, n] of counts ?? []) {
    const index = Number(value);
    if (value !== DEFAULT_RULE && Number.isInteger(index) && index >= 0 && n > 0) rules.push({ index, visits: n });
  }
  rules.sort((a, b) => a.index - b.index);
  return { rules, default: Math.max(0, visits - rules.reduce((sum, rule) => sum + rule.visits, 0)) };
}

/** A count on its way to Redis: `field` '' for the plain count, else `<dimension>:<value>`. */
export interface PendingBreakdownCount {
  code: string;
  day: string;
  field: string;
  visits: number;
}

/**
 * Bounds what one flush sends per code, day and dimension to STORED_VALUES_PER_DAY values (the
 * most visited), the rest as OTHER (countries are not folded), so a flood of made-up referrers
 * or agents cannot grow a pending hash without end; totals are unchanged.
 */
export function boundPendingValues<C extends PendingBreakdownCount>(counts: readonly C[]): C[] {
  const groups = new Map<string, C[]>();
  const kept: C[] = [];
  for (const count of counts) {
    const split = splitField(count.field);
    if (split === null || !isCapped(split.dimension)) {
      kept.push(count);
      continue;
    }
    const group = `${count.code}\t${count.day}\t${split.dimension}`;
    const held = groups.get(group);
    if (held) held.push(count);
    else groups.set(group, [count]);
  }
  for (const group of groups.values()) {
    if (group.length <= STORED_VALUES_PER_DAY) {
      kept.push(...group);
      continue;
    }
    const first = group[0]!;
    const otherField = fieldOf(splitField(first.field)!.dimension, OTHER);
    const ranked = group
      .filter((c) => c.field !== otherField)
      .sort((a, b) => b.visits - a.visits || (a.field < b.field ? -1 : 1));
    const rest = [...ranked.slice(STORED_VALUES_PER_DAY - 1), ...group.filter((c) => c.field === otherField)];
    kept.push(...ranked.slice(0, STORED_VALUES_PER_DAY - 1), {
      ...first,
      field: otherField,
      visits: rest.reduce((sum, c) => sum + c.visits, 0),
    });
  }
  return kept;
}
