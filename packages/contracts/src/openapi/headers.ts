import type { HeaderObject } from './types.js';

const integer = { type: 'string', pattern: '^[0-9]+$' };
const decimal = { type: 'string', pattern: '^[0-9]+(\\.[0-9]+)?$' };

/** Response headers the services send, by name; `header(name)` puts one in a response. */
const HEADERS = {
  'X-Request-Id': {
    description: 'Identifies the request in the logs; echoed from the request when it sent a sane one.',
    schema: { type: 'string', minLength: 1 },
  },
  'X-RateLimit-Limit': { description: 'Requests the bucket allows per window.', schema: integer },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: integer },
  'X-RateLimit-Reset': { description: 'Unix time (seconds, two decimals) when the window resets.', schema: decimal },
  'X-RateLimit-Reset-After': { description: 'Seconds until the window resets.', schema: decimal },
  'X-RateLimit-Bucket': {
    description: 'The bucket counted (`global` for the per-service window).',
    schema: { type: 'string' },
  },
  'X-RateLimit-Global': {
    description: '`true` when the global window was the one exceeded.',
    schema: { const: 'true' },
  },
  'Retry-After': { description: 'Seconds to wait before asking again.', schema: integer },
  Allow: { description: 'The methods this path accepts.', schema: { type: 'string', pattern: '^[A-Z]+(, [A-Z]+)*$' } },
  Location: {
    description: 'Where to go (redirect) or to poll (queued job).',
    schema: { type: 'string', format: 'uri' },
  },
  'Cache-Control': { description: 'How long the answer may be reused.', schema: { type: 'string' } },
  'Content-Security-Policy': { description: 'What the page may load and run.', schema: { type: 'string' } },
  ETag: {
    description: 'Validator of this answer: send it back in `If-None-Match` to get 304 while it is unchanged.',
    schema: { type: 'string', pattern: '^"[^"]*"$' },
  },
} satisfies Record<string, HeaderObject>;

export type HeaderName = keyof typeof HEADERS;

/** The definition of a documented response header; `required` when every such response sends it. */
export const header = (name: HeaderName, required = false): HeaderObject => ({ ...HEADERS[name], required });

/** `X-Request-Id`, sent on every response of every service (docs/api.md §1). */
export const requestIdHeader = (): Record<string, HeaderObject> => ({ 'X-Request-Id': header('X-Request-Id', true) });
