import { UnreadableValue, type LinkSource, type SourceItem } from './imported-link.js';
import { arrayOf, getJson, pageUrl, recordOf } from './json-pages.js';
import { originOf } from './source-origin.js';
import { dateOf, wholeOf } from './source-values.js';

/** As shlink-importer pages them. */
const LINKS_PER_PAGE = 50;

const stringOr = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/**
 * One link of Kutt's API v2 (`address`, `target`, `created_at`, `expire_in`, `visit_count`,
 * `domain`), mapped as shlink-importer's KuttImporter maps it.
 */
export function linkOfKuttLink(value: unknown): SourceItem {
  const link = recordOf(value, 'a link');
  const code = stringOr(link.address);
  const at = code === null ? 'a link without address' : `code ${code}`;
  if (code === null) return { ok: false, at, code: null, reason: 'the link has no address' };
  try {
    return {
      ok: true,
      link: {
        at,
        origin: originOf(`${stringOr(link.domain) ?? ''}/${code}`),
        code,
        url: stringOr(link.target) ?? '',
        credit: null,
        createdAt: dateOf(stringOr(link.created_at), 'created_at'),
        tags: [],
        expiresAt: dateOf(stringOr(link.expire_in), 'expire_in'),
        maxVisits: null,
        visits: wholeOf(link.visit_count as number | undefined, 'visit_count', 0, 0),
      },
    };
  } catch (error) {
    if (error instanceof UnreadableValue) return { ok: false, at, code, reason: error.message };
    throw error;
  }
}

/**
 * `--from kutt <base URL> --api-key <key>`: `GET /api/v2/links?limit=50&skip=N&all=false` with
 * `X-API-KEY`, while `total` is beyond the next skip.
 */
export function kuttApiSource(base: URL, apiKey: string): LinkSource {
  let done = 0;
  let total: number | null = null;
  async function* items(): AsyncGenerator<SourceItem> {
    for (let skip = 0; ; skip += LINKS_PER_PAGE) {
      const body = recordOf(
        await getJson(pageUrl(base, '/api/v2/links', { limit: LINKS_PER_PAGE, skip, all: 'false' }), {
          'X-API-KEY': apiKey,
        }),
        'the answer',
      );
      total = Number(body.total);
      for (const link of arrayOf(body.data, 'data')) {
        done++;
        yield linkOfKuttLink(link);
      }
      if (!(Number(body.total) > skip + LINKS_PER_PAGE)) return;
    }
  }
  return { items: items(), progress: () => ({ done, total }) };
}
