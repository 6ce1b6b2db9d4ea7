import { bitlyCsvSource } from './bitly-csv.source.js';
import { csvLinksSource } from './csv-links.source.js';
import type { LinkSource, SourceName } from './imported-link.js';
import { baseUrlOf } from './json-pages.js';
import { kuttApiSource } from './kutt-api.source.js';
import { shlinkApiSource } from './shlink-api.source.js';
import { shlinkCsvSource } from './shlink-csv.source.js';
import { yourlsSource } from './yourls.source.js';

/** A source cannot be opened as given (a missing API key, a location of the wrong kind). */
export class SourceLocationError extends Error {}

const isHttp = (location: string): boolean => /^https?:\/\//i.test(location);

/**
 * The source `--from name` at `location`: a file (csv, bitly-csv, shlink's CSV export), a base URL
 * (shlink, kutt: with `apiKey`) or a mysql:// connection string (yourls).
 */
export async function openLinkSource(
  name: SourceName,
  location: string,
  apiKey: string | undefined,
): Promise<LinkSource> {
  const needKey = (): string => {
    if (apiKey === undefined || apiKey === '')
      throw new SourceLocationError(`--from ${name} ${location} needs --api-key`);
    return apiKey;
  };
  switch (name) {
    case 'csv':
      return csvLinksSource(location);
    case 'bitly-csv':
      return bitlyCsvSource(location);
    case 'yourls':
      return yourlsSource(location);
    case 'shlink':
      return isHttp(location) ? shlinkApiSource(baseUrlOf(location), needKey()) : shlinkCsvSource(location);
    case 'kutt':
      if (!isHttp(location)) throw new SourceLocationError('--from kutt needs the base URL of a Kutt server');
      return kuttApiSource(baseUrlOf(location), needKey());
  }
}
