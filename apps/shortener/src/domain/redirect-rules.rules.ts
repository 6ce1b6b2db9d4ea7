import { REDIRECT_RULES_MAX, URL_MAX_LENGTH } from '@pawlink/contracts';
import { ApiError, isApiError } from '@pawlink/service-kit';
import type { AgentSummary } from './visit-source.rules.js';

/** The values of the `device`, `os` and `browser` conditions, as the breakdown's parser names them. */
export const RULE_DEVICES = ['mobile', 'tablet', 'desktop'] as const;
export const RULE_OSES = ['ios', 'android', 'windows', 'macos', 'linux', 'chromeos'] as const;
export const RULE_BROWSERS = ['chrome', 'firefox', 'safari', 'edge', 'opera', 'samsung'] as const;

/** bowser's names of the OSes and browsers the conditions name. */
const OS_NAMES: Readonly<Record<string, string>> = {
  iOS: 'ios',
  Android: 'android',
  Windows: 'windows',
  macOS: 'macos',
  Linux: 'linux',
  'Chrome OS': 'chromeos',
};
const BROWSER_NAMES: Readonly<Record<string, string>> = {
  Chrome: 'chrome',
  Chromium: 'chrome',
  Firefox: 'firefox',
  Safari: 'safari',
  'Microsoft Edge': 'edge',
  Opera: 'opera',
  'Samsung Internet for Android': 'samsung',
};

/** A rule's conditions as stored and answered: every one given must hold. */
export interface RuleConditions {
  device?: string[];
  os?: string[];
  browser?: string[];
  /** Language ranges, lower-case (`de` holds for `de-AT`). */
  language?: string[];
  /** ISO 3166 alpha-2, upper-case. */
  country?: string[];
  /** ISO 8601 instants (UTC, ms). */
  after?: string;
  before?: string;
  /** name → value the link's own query string must carry. */
  query?: Record<string, string>;
}

/** One rule as stored and answered. */
export interface RedirectRule {
  when: RuleConditions;
  url: string;
  /** Whether the query string the short link was followed with is appended to `url`. */
  forwardQuery: boolean;
}

/** A rule ready to evaluate (what the redirect caches hold): instants as ms. */
export interface CompiledRule {
  readonly when: Readonly<Omit<RuleConditions, 'after' | 'before'>> & { after?: number; before?: number };
  readonly url: string;
  readonly forwardQuery: boolean;
}

const CONDITIONS = ['device', 'os', 'browser', 'language', 'country', 'after', 'before', 'query'] as const;
const RULE_KEYS = ['when', 'url', 'forwardQuery'];

/** 400 1091, its message naming the rule (0-based, `rules[2].when.device`) and its field. */
export const invalidRule = (index: number | null, field: string, why: string): ApiError =>
  new ApiError('INVALID_RULES', {
    message: `The provided rules are invalid: ${index === null ? 'rules' : `rules[${index}].${field}`} ${why}.`,
  });

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A condition's one value or list of values (any of them holds), each checked by `check`. */
function listOf(
  value: unknown,
  index: number,
  field: string,
  check: (item: string) => string | undefined,
  expected: string,
): string[] {
  const items: unknown[] = Array.isArray(value) ? value : [value];
  if (items.length === 0 || items.length > 20)
    throw invalidRule(index, field, `must be one value or 1 to 20 of ${expected}`);
  return items.map((item) => {
    const checked = typeof item === 'string' ? check(item) : undefined;
    if (checked === undefined)
      throw invalidRule(index, field, `must be ${expected} (got ${JSON.stringify(item)?.slice(0, 40)})`);
    return checked;
  });
}

const oneOf = (known: readonly string[]) => (item: string) =>
  known.includes(item.toLowerCase()) ? item.toLowerCase() : undefined;
const LANGUAGE_RANGE = /^[a-z]{2,3}(?:-[a-z0-9]{1,8})*$/;
const COUNTRY = /^[A-Z]{2}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/i;

function instant(value: unknown, index: number, field: string): string {
  const at = typeof value === 'string' && INSTANT.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(at)) throw invalidRule(index, field, 'must be an ISO 8601 date-time with a time zone');
  return new Date(at).toISOString();
}

function conditionsOf(value: unknown, index: number): RuleConditions {
  if (!isObject(value)) throw invalidRule(index, 'when', 'must be an object of conditions');
  const when: RuleConditions = {};
  for (const [name, raw] of Object.entries(value)) {
    const field = `when.${name}`;
    switch (name as (typeof CONDITIONS)[number]) {
      case 'device':
        when.device = listOf(raw, index, field, oneOf(RULE_DEVICES), RULE_DEVICES.join(', '));
        break;
      case 'os':
        when.os = listOf(raw, index, field, oneOf(RULE_OSES), RULE_OSES.join(', '));
        break;
      case 'browser':
        when.browser = listOf(raw, index, field, oneOf(RULE_BROWSERS), RULE_BROWSERS.join(', '));
        break;
      case 'language':
        when.language = listOf(
          raw,
          index,
          field,
          (item) => (LANGUAGE_RANGE.test(item.toLowerCase()) ? item.toLowerCase() : undefined),
          'language tags (e.g. de, de-AT)',
        );
        break;
      case 'country':
        when.country = listOf(
          raw,
          index,
          field,
          (item) => (COUNTRY.test(item.toUpperCase()) ? item.toUpperCase() : undefined),
          'ISO 3166 alpha-2 country codes',
        );
        break;
      case 'after':
        when.after = instant(raw, index, field);
        break;
      case 'before':
        when.before = instant(raw, index, field);
        break;
      case 'query': {
        if (!isObject(raw) || Object.keys(raw).length === 0 || Object.keys(raw).length > 20)
          throw invalidRule(index, field, 'must be an object of 1 to 20 parameter names and values');
        const query: Record<string, string> = {};
        for (const [key, expected] of Object.entries(raw)) {
          if (key === '' || key.length > 100 || typeof expected !== 'string' || expected.length > 500)
            throw invalidRule(
              index,
              `${field}.${key}`,
              'must be a parameter name (1–100 characters) and a string value',
            );
          query[key] = expected;
        }
        when.query = query;
        break;
      }
      default:
        throw invalidRule(index, field, `is not a condition (${CONDITIONS.join(', ')})`);
    }
  }
  if (Object.keys(when).length === 0) throw invalidRule(index, 'when', 'must have at least one condition');
  if (when.after !== undefined && when.before !== undefined && when.after >= when.before)
    throw invalidRule(index, 'when.before', 'must be later than when.after');
  return when;
}

/**
 * `rules` as sent → the rules stored: a list of at most 20 `{when, url, forwardQuery?}`, each url
 * normalised by `targetUrl` (the checks of a link's `url`; its 1073 is answered as this rule's
 * 1091). Anything else is 400 1091 naming the rule and the field. null or [] means none.
 */
export function parseRules(value: unknown, targetUrl: (url: string) => string): RedirectRule[] {
  if (value === null) return [];
  if (!Array.isArray(value)) throw invalidRule(null, 'rules', `must be a list of at most ${REDIRECT_RULES_MAX} rules`);
  if (value.length > REDIRECT_RULES_MAX)
    throw invalidRule(null, 'rules', `must have at most ${REDIRECT_RULES_MAX} rules (${value.length} given)`);
  return (value as unknown[]).map((rule, index) => {
    if (!isObject(rule)) throw invalidRule(index, 'rule', 'must be an object {when, url, forwardQuery?}');
    const unknown = Object.keys(rule).find((key) => !RULE_KEYS.includes(key));
    if (unknown !== undefined) throw invalidRule(index, unknown, 'is not a field of a rule (when, url, forwardQuery)');
    const when = conditionsOf(rule.when, index);
    if (typeof rule.url !== 'string' || rule.url === '' || rule.url.length > URL_MAX_LENGTH)
      throw invalidRule(index, 'url', `must be a URL of 1 to ${URL_MAX_LENGTH} characters`);
    let url: string;
    try {
      url = targetUrl(rule.url);
    } catch (error) {
      if (!isApiError(error)) throw error;
      throw invalidRule(index, 'url', `is refused: ${error.message}`);
    }
    if (rule.forwardQuery !== undefined && typeof rule.forwardQuery !== 'boolean')
      throw invalidRule(index, 'forwardQuery', 'must be true or false');
    return { when, url, forwardQuery: rule.forwardQuery === true };
  });
}

/** Stored rules → the rules a redirect evaluates; null for none. */
export function compileRules(rules: readonly RedirectRule[]): CompiledRule[] | null {
  if (rules.length === 0) return null;
  return rules.map(({ when, url, forwardQuery }) => {
    const { after, before, ...rest } = when;
    return {
      when: {
        ...rest,
        ...(after !== undefined ? { after: Date.parse(after) } : {}),
        ...(before !== undefined ? { before: Date.parse(before) } : {}),
      },
      url,
      forwardQuery,
    };
  });
}

/** What the rules may ask of a request, each read only when a rule asks (and at most once). */
export interface RuleRequest {
  agent(): AgentSummary;
  /** The `Accept-Language` ranges, lower-case, best first (quality 0 left out). */
  languages(): readonly string[];
  country(): string | null;
  query(): URLSearchParams;
  readonly now: number;
}

/** `Accept-Language` → its ranges by quality, best first (equal qualities keep their order); `*` and q=0 left out. */
export function languagesOf(header: string | undefined): string[] {
  if (header === undefined || header === '') return [];
  const ranges: Array<{ tag: string; q: number; at: number }> = [];
  for (const [at, part] of header.split(',').slice(0, 50).entries()) {
    const [tag, ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
    const quality = q === undefined ? 1 : Number(q);
    const name = (tag ?? '').trim().toLowerCase();
    if (name === '' || name === '*' || !(quality > 0)) continue;
    ranges.push({ tag: name, q: quality, at });
  }
  return ranges.sort((a, b) => b.q - a.q || a.at - b.at).map((r) => r.tag);
}

/** Distinct `Accept-Language` values remembered; the memo is emptied when full (browsers send a handful). */
const LANGUAGE_MEMO_SIZE = 1_000;
const languageMemo = new Map<string, readonly string[]>();
const NO_LANGUAGES: readonly string[] = [];

/**
 * languagesOf, memoised: parsing a header costs a few microseconds, about as much as the rest of a
 * rule-decided redirect (measured in docs/adr/0022).
 */
export function preferredLanguages(header: string | undefined): readonly string[] {
  if (header === undefined || header === '') return NO_LANGUAGES;
  let languages = languageMemo.get(header);
  if (languages === undefined) {
    languages = languagesOf(header);
    if (languageMemo.size >= LANGUAGE_MEMO_SIZE) languageMemo.clear();
    languageMemo.set(header, languages);
  }
  return languages;
}

/**
 * Whether a condition's language range holds for the visitor (Shlink: the visitor's preferred
 * languages): `de` holds for `de` and `de-AT`, `de-at` only for `de-AT`.
 */
const languageHolds = (wanted: readonly string[], languages: readonly string[]): boolean =>
  languages.some((language) => wanted.some((range) => language === range || language.startsWith(`${range}-`)));

function holds(rule: CompiledRule, request: RuleRequest): boolean {
  const { when } = rule;
  if (when.after !== undefined && request.now < when.after) return false;
  if (when.before !== undefined && request.now >= when.before) return false;
  if (when.device !== undefined && !when.device.includes(request.agent().device)) return false;
  if (when.os !== undefined && !when.os.includes(OS_NAMES[request.agent().os] ?? '')) return false;
  if (when.browser !== undefined && !when.browser.includes(BROWSER_NAMES[request.agent().browser] ?? '')) return false;
  if (when.language !== undefined && !languageHolds(when.language, request.languages())) return false;
  if (when.country !== undefined && !when.country.includes(request.country() ?? '')) return false;
  if (when.query !== undefined) {
    const query = request.query();
    for (const name in when.query) if (query.get(name) !== when.query[name]) return false;
  }
  return true;
}

/** The index of the first rule whose every condition holds, or -1 (the link's own url). */
export function firstHolding(rules: readonly CompiledRule[], request: RuleRequest): number {
  for (let i = 0; i < rules.length; i++) if (holds(rules[i]!, request)) return i;
  return -1;
}

/** A target with the query the short link was followed with appended (`forwardQuery`). */
export function withQuery(url: string, rawQuery: string): string {
  if (rawQuery === '') return url;
  const hash = url.indexOf('#');
  const base = hash === -1 ? url : url.slice(0, hash);
  const fragment = hash === -1 ? '' : url.slice(hash);
  return `${base}${base.includes('?') ? '&' : '?'}${rawQuery}${fragment}`;
}
