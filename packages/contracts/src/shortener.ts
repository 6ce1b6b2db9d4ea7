/*
 * The shortener's wire shapes (docs/api.md §2), each written once as a JSON Schema that carries its
 * type (docs/adr/0016): the OpenAPI document references these schemas and the services and
 * handlers use the types inferred from them.
 */
import { CREDIT_MAX_LENGTH } from './credit-text.js';
import { creditSchema, shortCodeSchema, targetUrlSchema } from './patterns.js';
import * as s from './schema.js';
import type { Static } from './schema.js';

export { SHORT_CODE_MAX_LENGTH, SHORT_CODE_PATTERN, URL_MAX_LENGTH } from './patterns.js';

/** Days of `GET /:code/stats`: today (UTC) and the days before it. */
export const VISIT_STATS_DAYS = 90;
/** Largest `maxVisits`. */
export const MAX_VISITS_LIMIT = 2_147_483_647;

/** Why a link answers 410 (`extra.reason` of 1083). */
export type ExpiryReason = 'expiresAt' | 'maxVisits';

export const RANDOM_CODE_LENGTH = 8;
export const RANDOM_CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const DEFAULT_CREDIT = 'Unknown';

/** `GET /links`: page sizes. */
export const LINKS_PAGE_DEFAULT = 25;
export const LINKS_PAGE_MAX = 100;
/** Longest `q` of `GET /links`. */
export const LINKS_QUERY_MAX_LENGTH = 200;

/** Tags of one link: at most this many, each 1–32 of a-z, 0-9 and - (stored lower-case). */
export const TAGS_MAX = 10;
export const TAG_MAX_LENGTH = 32;
export const TAG_PATTERN = /^[a-z0-9-]{1,32}$/;
/** A link's tags as answered: lower-case, each once, sorted. */
export const tagsSchema = (keywords: Record<string, unknown> = {}) =>
  s.array(s.string({ minLength: 1, maxLength: TAG_MAX_LENGTH, pattern: TAG_PATTERN.source }), {
    maxItems: TAGS_MAX,
    uniqueItems: true,
    ...keywords,
  });

/** Redirect rules of one link, at most. */
export const REDIRECT_RULES_MAX = 20;

/** A link's password: 8 to 128 characters. */
export const LINK_PASSWORD_MIN_LENGTH = 8;
export const LINK_PASSWORD_MAX_LENGTH = 128;
/** Wrong passwords one address may try on one link in a minute. */
export const LINK_PASSWORD_TRIES_PER_MINUTE = 10;

/** Items of one `POST /create/bulk`. */
export const BULK_CREATE_MAX_LINKS = 100;

/**
 * The body POST /create/bulk takes (its own, above BODY_LIMIT_BYTES, which bounds every other
 * body): BULK_CREATE_MAX_LINKS items of 5 KiB, which holds an item with every field at its longest
 * as the most verbose JSON encoders write it — a URL of URL_MAX_LENGTH characters with every `/`
 * escaped (`\/`, 4096 bytes), a 50-character code, a 50-character credit of surrogate pairs each
 * written `\uXXXX\uXXXX` (600 bytes), an expiry, a visit limit, the names and punctuation — and
 * the envelope.
 */
export const BULK_CREATE_BODY_MAX_BYTES = 512 * 1024;

/** `GET /:code/qr` parameters. */
export const QR_FORMATS = ['svg', 'png'] as const;
export type QrFormat = (typeof QR_FORMATS)[number];
export const QR_SIZE_MIN = 64;
export const QR_SIZE_MAX = 2048;
export const QR_SIZE_DEFAULT = 512;
export const QR_MARGIN_MAX = 8;
export const QR_MARGIN_DEFAULT = 2;

const oneOrMany = (item: s.Schema<string>, description: string) =>
  s.opaque<string | string[]>({
    oneOf: [item, { type: 'array', items: item, minItems: 1, maxItems: 20 }],
    description,
  });

/** One redirect rule (issue 38): conditions that must all hold, and where the visit then goes. */
export const RedirectRuleSchema = s.object(
  {
    when: s.object(
      {
        device: oneOrMany(s.oneOfValues(['mobile', 'tablet', 'desktop']), 'Any of these devices.'),
        os: oneOrMany(
          s.oneOfValues(['ios', 'android', 'windows', 'macos', 'linux', 'chromeos']),
          'Any of these operating systems.',
        ),
        browser: oneOrMany(
          s.oneOfValues(['chrome', 'firefox', 'safari', 'edge', 'opera', 'samsung']),
          'Any of these browsers.',
        ),
        language: oneOrMany(
          s.string({ pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$' }),
          "Any of these language ranges among the visitor's `Accept-Language` (by quality; `de` holds for `de-AT`).",
        ),
        country: oneOrMany(
          s.string({ pattern: '^[A-Za-z]{2}$' }),
          "Any of these ISO 3166 alpha-2 countries (the visitor's address, from the stats' country database).",
        ),
        after: s.dateTime({ description: 'From this instant on.' }),
        before: s.dateTime({ description: 'Before this instant.' }),
        query: s.record(s.string({ maxLength: 500 }), {
          description: "Parameters the short link's own query string must carry, name → value.",
        }),
      },
      {
        optional: ['device', 'os', 'browser', 'language', 'country', 'after', 'before', 'query'],
        minProperties: 1,
      },
    ),
    url: targetUrlSchema({ description: 'Where the visit goes: the same checks as `url`.' }),
    forwardQuery: s.boolean({
      description: "Whether the short link's query string is appended to `url` (default false).",
    }),
  },
  { optional: ['forwardQuery'] },
);
export type RedirectRuleBody = Static<typeof RedirectRuleSchema>;

/** A short URL as every shortener response shows it (component `ShortUrlRecord`). */
export const ShortUrlRecordSchema = s.object(
  {
    code: shortCodeSchema(),
    createdAt: s.dateTime(),
    modifiedAt: s.nullable(s.dateTime()),
    url: s.nullable(
      targetUrlSchema({
        description: "The target; null in `GET /{code}.json` of a password-protected link for any key but its owner's.",
      }),
    ),
    pos: s.integer({ minimum: 1, description: "The entry's 1-based creation sequence number." }),
    credit: creditSchema(),
    fullURL: s.string({ format: 'uri', description: 'SHORTENER_URL + "/" + code.' }),
    /** When the link stops redirecting (ISO 8601, UTC); null when it does not expire by date. */
    expiresAt: s.nullable(s.dateTime({ description: 'When the link expires (UTC, ms); null when unset.' })),
    /** The counted visits after which the link stops redirecting; null when unlimited. */
    maxVisits: s.nullable(
      s.integer({
        minimum: 1,
        maximum: MAX_VISITS_LIMIT,
        description: 'The counted visits after which the link expires; null when unset.',
      }),
    ),
    rules: s.array(RedirectRuleSchema, {
      maxItems: REDIRECT_RULES_MAX,
      description:
        'Where the link sends a visit instead of `url`: the first rule whose every condition holds wins (bots always get `url`). Empty when the link has none, or when `url` is hidden.',
    }),
    protected: s.boolean({ description: 'Whether the link asks visitors for a password (which is never returned).' }),
    tags: tagsSchema({
      description:
        "The link's tags, lower-case, sorted; shown to its owner's key (and on create and PATCH), left out otherwise.",
    }),
  },
  // Extended by `allOf` (with visits, with the management code): closed by each extension.
  { additionalProperties: true, optional: ['tags'] },
);
export type ShortUrlRecord = Static<typeof ShortUrlRecordSchema>;

const recordRef = s.ref('ShortUrlRecord', ShortUrlRecordSchema);

/** The record with its total of counted visits (`GET /{code}.json`, PATCH, `/links`; component `ShortUrlWithVisits`). */
export const ShortUrlWithVisitsSchema = s.extend(recordRef, {
  visits: s.integer({ minimum: 0, description: "The link's total of counted visits." }),
});
export type ShortUrlWithVisits = Static<typeof ShortUrlWithVisitsSchema>;

/** The record as a create answers it: with its management code, shown once. */
export const CreatedShortUrlSchema = s.extend(recordRef, {
  managementCode: s.nullable(
    s.string({ description: 'Shown once; null when not editable or when the URL already had a fixed entry.' }),
  ),
});
export type CreatedShortUrl = Static<typeof CreatedShortUrlSchema>;

/** The components the shortener's document holds, by name. */
export const SHORTENER_SCHEMAS = {
  ShortUrlRecord: ShortUrlRecordSchema,
  ShortUrlWithVisits: ShortUrlWithVisitsSchema,
};

/** A reference to the record-with-visits component. */
export const shortUrlWithVisitsRef = s.ref('ShortUrlWithVisits', ShortUrlWithVisitsSchema);

/** One UTC day of counted visits. */
export const VisitDaySchema = s.object({
  date: s.string({ format: 'date' }),
  visits: s.integer({ minimum: 1 }),
});
export type VisitDay = Static<typeof VisitDaySchema>;

/** One value of a breakdown list (`host`, `country` or `name`) and its visits. */
const visits = () => s.integer({ minimum: 1 });

/**
 * Where the visits of the stats period came from (docs/api.md): each list adds up to the period's
 * visits. `referrers` names the top 20 hosts (`direct`: no or an unparseable `Referer`), `browsers`
 * and `os` the top 10, the rest as `other`; `countries` are ISO 3166 alpha-2 or `unknown`.
 */
const VISIT_BREAKDOWN_PROPERTIES = {
  referrers: s.array(
    s.object({ host: s.string({ description: 'A host name, `direct`, `unknown` or `other`.' }), visits: visits() }),
    {
      maxItems: 21,
      description:
        "Where the visits of `days` came from: the top 20 referring hosts (the `Referer` URL's host, lower case, without port; `direct` for none or an unparseable one), most visits first, then `other` for the rest. Visits counted before the breakdown existed are `unknown`. Adds up to the visits of `days`.",
    },
  ),
  countries: s.array(
    s.object({ country: s.string({ description: 'ISO 3166 alpha-2, or `unknown`.' }), visits: visits() }),
    {
      description:
        "The visitors' countries, most visits first; `unknown` when the address is not in the database. From a local country database, by default [IP Geolocation by DB-IP](https://db-ip.com) (IP to Country Lite, CC BY 4.0); the address is never stored. Adds up to the visits of `days`.",
    },
  ),
  browsers: s.array(
    s.object({
      name: s.string({ description: 'A browser name (e.g. `Chrome`, `Firefox`, `Safari`), or `other`.' }),
      visits: visits(),
    }),
    {
      maxItems: 11,
      description:
        'The top 10 browsers by visits, then `other` for the rest (and the unrecognised). Adds up to the visits of `days`.',
    },
  ),
  os: s.array(
    s.object({
      name: s.string({ description: 'An OS name (e.g. `Windows`, `macOS`, `iOS`, `Android`, `Linux`), or `other`.' }),
      visits: visits(),
    }),
    {
      maxItems: 11,
      description: 'The top 10 operating systems by visits, then `other`. Adds up to the visits of `days`.',
    },
  ),
  devices: s.object(
    {
      desktop: s.integer({ minimum: 0 }),
      mobile: s.integer({ minimum: 0 }),
      tablet: s.integer({ minimum: 0 }),
      other: s.integer({ minimum: 0 }),
    },
    {
      description:
        'Visits by device type (TVs, consoles and the unrecognised are `other`). Adds up to the visits of `days`.',
    },
  ),
};
/** Where the visits came from (the breakdown lists of the stats). */
export const VisitBreakdownSchema = s.object(VISIT_BREAKDOWN_PROPERTIES);
export type VisitBreakdown = Static<typeof VisitBreakdownSchema>;

/** `GET /:code/stats`: the counted visits of a code. */
export const ShortUrlStatsSchema = s.object({
  code: s.string(),
  visits: s.integer({ minimum: 0, description: 'The total of counted visits.' }),
  days: s.array(VisitDaySchema, {
    description: 'The UTC days of the last 90 (today included) that had visits, oldest first.',
  }),
  ...VISIT_BREAKDOWN_PROPERTIES,
  rules: s.array(
    s.object({
      index: s.integer({ minimum: 0, maximum: REDIRECT_RULES_MAX - 1, description: 'The rule, 0-based.' }),
      visits: visits(),
    }),
    {
      maxItems: REDIRECT_RULES_MAX,
      description:
        "Visits of `days` each redirect rule decided, by index (rules without visits left out). Counted as the rule's index at the visit: reordering rules does not move past visits.",
    },
  ),
  default: s.integer({
    minimum: 0,
    description: "Visits of `days` that went to the link's own `url` (no rule held, a bot, or before rules existed).",
  }),
});
export type ShortUrlStats = Static<typeof ShortUrlStatsSchema>;

/** `GET /links`: a page of the key's entries and the cursor of the next. */
export const ShortUrlPageSchema = s.object({
  links: s.array(shortUrlWithVisitsRef, {
    maxItems: LINKS_PAGE_MAX,
    description: 'Newest first (createdAt, then pos, descending); expired entries included.',
  }),
  next: s.nullable(s.string({ description: 'The `cursor` of the next page; null on the last one.' })),
});
export type ShortUrlPage = Static<typeof ShortUrlPageSchema>;

/** `GET /tags`: the key's tags and how many of its links carry each. */
export const TagListSchema = s.object({
  tags: s.array(
    s.object({
      tag: s.string({ minLength: 1, maxLength: TAG_MAX_LENGTH }),
      links: s.integer({ minimum: 1, description: "The key's links that carry the tag." }),
    }),
    { description: 'Every tag on a link of the presenting key, by name.' },
  ),
});
export type TagList = Static<typeof TagListSchema>;

/** One item's outcome in `POST /create/bulk`: what POST /create would have answered (its HTTP status as `status`), or its failure. */
export const BulkCreateItemResultSchema = s.oneOf(
  s.object({
    success: s.literal(true),
    status: s.oneOfValues([201, 200], {
      description: "The status POST /create would have answered: 201 made, 200 the URL's existing fixed entry.",
    }),
    data: CreatedShortUrlSchema,
  }),
  s.object({
    success: s.literal(false),
    code: s.integer({
      description:
        'The code POST /create would have answered (1070–1074, 1081, 1082, 1087), or 1084 for an item that is not an object.',
    }),
    error: s.string(),
  }),
);
export type BulkCreateItemResult = Static<typeof BulkCreateItemResultSchema>;

/** A success that carries `data` (docs/api.md §1). */
export interface Success<T> {
  success: true;
  data: T;
}
export type CreateShortUrlResponse = Success<CreatedShortUrl>;
export type ShortUrlInfoResponse = Success<ShortUrlWithVisits>;
export type ShortUrlStatsResponse = Success<ShortUrlStats>;
export type ListShortUrlsResponse = Success<ShortUrlPage>;
export type BulkCreateShortUrlsResponse = Success<BulkCreateItemResult[]>;

/** The credit limit, for readers of this module. */
export { CREDIT_MAX_LENGTH };
