import { UnreadableValue, type LinkSource, type SourceItem } from './imported-link.js';
import { arrayOf, getJson, pageUrl, recordOf } from './json-pages.js';
import { originOf } from './source-origin.js';
import { dateOf, wholeOf } from './source-values.js';

/** As shlink-importer pages them. */
const SHORT_URLS_PER_PAGE = 50;

const stringOr = (value: unknown, fallback: string | null): string | null =>
  typeof value === 'string' ? value : fallback;

/**
 * One short URL of Shlink's REST API v3 (`shortCode`, `longUrl`, `dateCreated`, `tags`, `domain`,
 * `meta.validUntil`, `meta.maxVisits`, `visitsSummary.total`, or `visitsCount` on older servers),
 * mapped as shlink-importer's ShlinkMapper maps it.
 */
export function linkOfShlinkShortUrl(value: unknown): SourceItem {
  const url = recordOf(value, 'a short URL');
  const code = stringOr(url.shortCode, null);
  const at = code === null ? 'a short URL without shortCode' : `code ${code}`;
  if (code === null || code === '') return { ok: false, at, code: null, reason: 'the short URL has no shortCode' };
  const meta = typeof url.meta === 'object' && url.meta !== null ? (url.meta as Record<string, unknown>) : {};
  const summary =
    typeof url.visitsSummary === 'object' && url.visitsSummary !== null
      ? (url.visitsSummary as Record<string, unknown>)
      : {};
  try {
    return {
      ok: true,
      link: {
        at,
        origin: originOf(`${stringOr(url.domain, '') ?? ''}/${code}`),
        code,
        url: stringOr(url.longUrl, '') ?? '',
        credit: null,
        createdAt: dateOf(stringOr(url.dateCreated, null), 'dateCreated'),
        tags: Array.isArray(url.tags) ? url.tags.filter((t): t is string => typeof t === 'string') : [],
        expiresAt: dateOf(stringOr(meta.validUntil, null), 'meta.validUntil'),
        maxVisits: wholeOf(meta.maxVisits as number | null | undefined, 'meta.maxVisits', 1, null),
        visits: wholeOf((summary.total ?? url.visitsCount) as number | undefined, 'visitsSummary.total', 0, 0),
      },
    };
  } catch (error) {
    if (error instanceof UnreadableValue) return { ok: false, at, code, reason: error.message };
    throw error;
  }
}

/**
 * `--from shlink <base URL> --api-key <key>`: `GET /rest/v3/short-urls?page=N&itemsPerPage=50`
 * with `X-Api-Key`, page after page while `pagination.currentPage < pagination.pagesCount`.
 */
export function shlinkApiSource(base: URL, apiKey: string): LinkSource {
  let done = 0;
  let total: number | null = null;
  async function* items(): AsyncGenerator<SourceItem> {
    for (let page = 1; ; page++) {
      const body = recordOf(
        await getJson(pageUrl(base, '/rest/v3/short-urls', { page, itemsPerPage: SHORT_URLS_PER_PAGE }), {
          'X-Api-Key': apiKey,
        }),
        'the answer',
      );
      const shortUrls = recordOf(body.shortUrls, 'shortUrls');
      const pagination = recordOf(shortUrls.pagination, 'shortUrls.pagination');
      if (typeof pagination.totalItems === 'number') total = pagination.totalItems;
      for (const url of arrayOf(shortUrls.data, 'shortUrls.data')) {
        done++;
        yield linkOfShlinkShortUrl(url);
      }
      if (!(Number(pagination.currentPage) < Number(pagination.pagesCount))) return;
    }
  }
  return { items: items(), progress: () => ({ done, total }) };
}
