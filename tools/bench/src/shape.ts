import type { WrkRequest } from './wrk-script.js';

/** Headers every node:http answer has, or that only say how the body was produced. */
const TRANSPORT_HEADERS = new Set([
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'etag',
  'x-powered-by',
  'content-length',
]);

/** An answer reduced to what a fair ceiling must reproduce: status, body keys, header names. */
export interface ResponseShape {
  status: number;
  /** JSON key structure (`{a,b:[{c}]}`), or the content type for other bodies. */
  body: string;
  headers: string[];
}

/** The keys of a JSON value, nested, sorted; values are left out (a random image differs every time). */
export function jsonKeys(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[${jsonKeys(value[0])}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
    return `{${entries
      .map(([key, inner]) => {
        const nested = jsonKeys(inner);
        return nested === '' ? key : `${key}:${nested}`;
      })
      .join(',')}}`;
  }
  return '';
}

/** Sends `request` once (as wrk would) and reduces the answer to its shape. */
export async function fetchShape(baseUrl: string, request: WrkRequest): Promise<ResponseShape> {
  const response = await fetch(`${baseUrl}${request.path}`, {
    method: request.method ?? 'GET',
    redirect: 'manual',
    ...(request.headers ? { headers: request.headers } : {}),
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  const body = type.includes('json') ? jsonKeys(JSON.parse(text)) : type.split(';')[0] || '(no body)';
  const headers = [...response.headers.keys()].filter((name) => !TRANSPORT_HEADERS.has(name)).sort();
  return { status: response.status, body, headers };
}

/** Why two answers are not the same endpoint's answer (status or body), or null when they are. */
export function shapeMismatch(pawlink: ResponseShape, ceiling: ResponseShape): string | null {
  if (pawlink.status !== ceiling.status) return `status ${pawlink.status} vs ceiling ${ceiling.status}`;
  if (pawlink.body !== ceiling.body) return `body ${pawlink.body} vs ceiling ${ceiling.body}`;
  return null;
}

/** Header names one side sends and the other does not (informative: costs differ a little). */
export function headerDifferences(
  pawlink: ResponseShape,
  ceiling: ResponseShape,
): { onlyPawlink: string[]; onlyCeiling: string[] } {
  return {
    onlyPawlink: pawlink.headers.filter((h) => !ceiling.headers.includes(h)),
    onlyCeiling: ceiling.headers.filter((h) => !pawlink.headers.includes(h)),
  };
}
