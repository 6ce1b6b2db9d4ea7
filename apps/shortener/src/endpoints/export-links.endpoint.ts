import { apiKeyOf } from '@pawlink/auth';
import { s } from '@pawlink/contracts';
import { header, media } from '@pawlink/contracts/openapi';
import { ApiError, field, inQuery, optional, rateLimit, requireKey, type Field } from '@pawlink/service-kit';
import {
  csvHeader,
  csvLine,
  EXPORT_FORMATS,
  ndjsonLine,
  type ExportFormat,
  type ExportRecord,
} from '../domain/links-export.rules.js';
import { streamExport } from '../http/links-export-stream.http.js';
import { SHORT_URL_TAGS, shortenerEndpoint } from './shortener.deps.js';

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8; header=present',
  ndjson: 'application/x-ndjson; charset=utf-8',
};

const quoted = (value: unknown): string => JSON.stringify(String(value).slice(0, 50));

/** `?format`: csv (default) or ndjson, given once. */
const exportFormat = (): Field<ExportFormat> =>
  field({
    schema: s.oneOfValues(EXPORT_FORMATS, { default: 'csv' }),
    description:
      '`csv` (default: the format `bin/admin links import --from csv` reads) or `ndjson` (one JSON object a line).',
    codes: ['INVALID_QUERY_VALUE'],
    parse: (raw) => {
      const value: unknown = raw ?? 'csv';
      const format = EXPORT_FORMATS.find((known) => known === value);
      if (format === undefined)
        throw new ApiError('INVALID_QUERY_VALUE', {
          message: `Invalid format: ${typeof value === 'string' ? quoted(value) : 'given more than once'}; give it once, as csv or ndjson.`,
        });
      return format;
    },
  });

/** `?include=days`: each link's visits per UTC day too. */
const exportInclude = (): Field<'days'> =>
  field({
    schema: s.oneOfValues(['days'] as const),
    description: "`days`: also each link's visits per UTC day (a `days` column in CSV, an object in NDJSON).",
    codes: ['INVALID_QUERY_VALUE'],
    parse: (value) => {
      if (value !== 'days')
        throw new ApiError('INVALID_QUERY_VALUE', {
          message: `Invalid include: ${typeof value === 'string' ? quoted(value) : 'given more than once'}; give it once, as days.`,
        });
      return 'days';
    },
  });

/**
 * GET /links/export `?format&include`: every entry of the presenting key, oldest first, streamed
 * page by page (keyset over the owner's index; a slow client holds the reading back). The first
 * page is read before anything is sent, so a failure then is an ordinary error answer; a failure
 * later is logged and resets the connection (the status has gone), which a client sees as an error,
 * never as a complete file; a client that leaves stops the reading (streamExport).
 */
export const exportLinksEndpoint = shortenerEndpoint({
  operationId: 'exportLinks',
  summary: 'Export every short URL created with this key',
  description:
    'Every entry the presenting key created (expired ones included), oldest first, with its tags and visits (those counted before an import, plus those moved to MySQL: the last few seconds may be missing). ' +
    'CSV is exactly what `bin/admin links import --from csv` reads, so an export imports back unchanged: `url,code,credit,createdAt,tags,expiresAt,maxVisits,visits` (tags joined with `|`; with `include=days` a last column `days`, `YYYY-MM-DD:n` joined with `|`, which the import ignores). NDJSON: one object a line with the same names (`tags` a list, `days` an object). ' +
    'A failure before the first byte is an ordinary error answer; one after it (the database lost part way) resets the connection without ending the body, so the client sees an error, never a shorter file that looks complete: a download is whole only when the transfer ended cleanly.',
  tags: SHORT_URL_TAGS,
  method: 'get',
  path: '/links/export',
  refuseOtherMethods: true,
  guards: [requireKey('shortener'), rateLimit('shortener.read')],
  fields: {
    format: inQuery(exportFormat()),
    include: inQuery(optional(exportInclude())),
  },
  responses: {
    200: media('The export, streamed.', ['text/csv', 'application/x-ndjson'], {
      'Cache-Control': header('Cache-Control', true),
      'Content-Disposition': {
        description: 'A download named `links.csv` or `links.ndjson`.',
        schema: { type: 'string' },
        required: true,
      },
    }),
  },
  handler:
    ({ services, logger }) =>
    async ({ input: { format, include }, req, res }) => {
      // requireKey ran first: a key is always there.
      const owner = apiKeyOf(res)!.id;
      const withDays = include === 'days';
      const pages = services.exportLinks.pages(owner, withDays);
      const lines = (page: ExportRecord[]): string =>
        page.map((record) => (format === 'csv' ? csvLine(record, withDays) : ndjsonLine(record))).join('');
      // Read before anything is sent: a failure here is an ordinary error answer.
      const first = await pages.next();
      res.status(200).set({
        'Content-Type': CONTENT_TYPES[format],
        'Content-Disposition': `attachment; filename="links.${format}"`,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      });
      // HEAD: the answer GET would start with, without reading the rest.
      if (req.method === 'HEAD') {
        await pages.return(undefined);
        res.end();
        return;
      }
      const head = (format === 'csv' ? csvHeader(withDays) : '') + (first.done === true ? '' : lines(first.value));
      await streamExport(res, head, pages, lines, { owner, format, pages: first.done === true ? 0 : 1, logger });
    },
});
