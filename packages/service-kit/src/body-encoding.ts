import type { IncomingMessage } from 'node:http';
import { ApiError } from './api-error.js';

/**
 * Content-Encodings the body parsers undo. Bodies here are small JSON documents, but clients that
 * compress every request should not be refused for it; the body limit applies to the decoded bytes.
 * zstd is left out on purpose: whether node's zlib has it depends on the runtime.
 */
const DECODED_ENCODINGS: ReadonlySet<string> = new Set(['identity', 'gzip', 'deflate', 'br']);

/** Charsets read, per body type: JSON is UTF-8 (RFC 8259 §8.1); HTML forms are also sent in ISO-8859-1. */
const JSON_CHARSETS: ReadonlySet<string> = new Set(['utf-8']);
const FORM_CHARSETS: ReadonlySet<string> = new Set(['utf-8', 'iso-8859-1']);

const quoted = (value: string): string => JSON.stringify(value.slice(0, 50));

/** The `charset` parameter of a Content-Type, lower-cased; undefined when it names none. */
function charsetOf(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '');
  return match ? (match[1] ?? match[2] ?? '').toLowerCase() : undefined;
}

function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

const isJsonType = (type: string): boolean =>
  type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));

/**
 * 415 code 1014 for a body this service cannot decode, naming what was sent: a Content-Encoding
 * other than gzip, deflate or br (several stacked ones included), or a JSON or form body in a
 * charset it does not read. Other content types are left to the parsers (1026).
 */
export function undecodableBody(req: IncomingMessage): ApiError | undefined {
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && !DECODED_ENCODINGS.has(encoding.trim().toLowerCase())) {
    return new ApiError('UNSUPPORTED_BODY_ENCODING', {
      message: `Unsupported Content-Encoding ${quoted(encoding)}: send the body uncompressed, or compressed with gzip, deflate or br.`,
    });
  }
  const contentType = req.headers['content-type'];
  const charset = charsetOf(contentType);
  if (charset === undefined) return undefined;
  const type = mediaTypeOf(contentType);
  const read = isJsonType(type)
    ? JSON_CHARSETS
    : type === 'application/x-www-form-urlencoded'
      ? FORM_CHARSETS
      : undefined;
  if (read === undefined || read.has(charset)) return undefined;
  return new ApiError('UNSUPPORTED_BODY_ENCODING', {
    message: `Unsupported charset ${quoted(charset)}: send ${read === JSON_CHARSETS ? 'JSON in UTF-8' : 'the form in UTF-8 or ISO-8859-1'}.`,
  });
}

/** What the body parsers say when they cannot decode a body (an encoding or charset they refused), as 1014. */
export function undecodableBodyError(error: {
  type?: string;
  encoding?: unknown;
  charset?: unknown;
}): ApiError | undefined {
  if (error.type === 'encoding.unsupported') {
    return new ApiError('UNSUPPORTED_BODY_ENCODING', {
      message: `Unsupported Content-Encoding ${quoted(String(error.encoding))}: send the body uncompressed, or compressed with gzip, deflate or br.`,
      cause: error,
    });
  }
  if (error.type === 'charset.unsupported') {
    return new ApiError('UNSUPPORTED_BODY_ENCODING', {
      message: `Unsupported charset ${quoted(String(error.charset))}: send the body in UTF-8.`,
      cause: error,
    });
  }
  return undefined;
}
