/** A JSON API answered something other than a 2xx JSON body: the import stops with this message. */
export class SourceApiError extends Error {}

/** Longest wait for one page. */
const PAGE_TIMEOUT_MS = 30_000;

/**
 * GETs `url` with `headers` and returns its JSON body; a non-2xx status, a body that is not JSON,
 * a timeout or a refused connection is a SourceApiError naming the URL (without its query).
 */
export async function getJson(url: URL, headers: Record<string, string>): Promise<unknown> {
  const shown = `${url.origin}${url.pathname}`;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json', ...headers },
      signal: AbortSignal.timeout(PAGE_TIMEOUT_MS),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    throw new SourceApiError(`${shown}: ${cause ?? (error as Error).message}`);
  }
  const text = await response.text();
  if (!response.ok) throw new SourceApiError(`${shown} answered ${response.status}: ${text.slice(0, 200)}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new SourceApiError(`${shown} answered ${response.status} with a body that is not JSON`);
  }
}

/** `value` as a record, or a SourceApiError saying what was expected. */
export function recordOf(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new SourceApiError(`${what} is not an object`);
  return value as Record<string, unknown>;
}

/** `value` as an array, or a SourceApiError. */
export function arrayOf(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new SourceApiError(`${what} is not a list`);
  return value;
}

/** A base URL given on the command line (its query and fragment dropped); http(s) only. */
export function baseUrlOf(text: string): URL {
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SourceApiError(`${text} is not an http(s) URL`);
  url.search = '';
  url.hash = '';
  return url;
}

/** `base` with `path` appended and `query` set. */
export function pageUrl(base: URL, path: string, query: Record<string, string | number>): URL {
  const url = new URL(base.href);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, String(value));
  return url;
}
