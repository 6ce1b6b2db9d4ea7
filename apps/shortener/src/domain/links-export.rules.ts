/** What `GET /links/export` writes. */
export const EXPORT_FORMATS = ['csv', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The columns `bin/admin links import --from csv` reads, in this order; `days` only with include=days. */
export const EXPORT_CSV_COLUMNS = [
  'url',
  'code',
  'credit',
  'createdAt',
  'tags',
  'expiresAt',
  'maxVisits',
  'visits',
] as const;

/** One link of an export. */
export interface ExportRecord {
  url: string;
  code: string;
  credit: string;
  /** ISO 8601. */
  createdAt: string;
  tags: string[];
  expiresAt: string | null;
  maxVisits: number | null;
  visits: number;
  /** UTC day → visits, oldest first; only with include=days. */
  days?: Record<string, number>;
}

/** A CSV field as RFC 4180 writes it: quoted when it holds a comma, a quote or a line break. */
export const csvField = (value: string): string => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** The header line (CRLF-terminated, as RFC 4180). */
export const csvHeader = (withDays: boolean): string =>
  `${[...EXPORT_CSV_COLUMNS, ...(withDays ? ['days'] : [])].join(',')}\r\n`;

/** One record as a CSV line: tags joined with `|`, days as `YYYY-MM-DD:n|…`, absent values empty. */
export function csvLine(record: ExportRecord, withDays: boolean): string {
  const fields = [
    record.url,
    record.code,
    record.credit,
    record.createdAt,
    record.tags.join('|'),
    record.expiresAt ?? '',
    record.maxVisits === null ? '' : String(record.maxVisits),
    String(record.visits),
  ];
  if (withDays)
    fields.push(
      Object.entries(record.days ?? {})
        .map(([day, visits]) => `${day}:${visits}`)
        .join('|'),
    );
  return `${fields.map(csvField).join(',')}\r\n`;
}

/** One record as a line of NDJSON. */
export const ndjsonLine = (record: ExportRecord): string => `${JSON.stringify(record)}\n`;
