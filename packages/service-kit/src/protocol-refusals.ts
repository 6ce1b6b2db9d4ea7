import { HEADER_FIELDS_LIMIT_BYTES, REQUEST_TARGET_LIMIT_BYTES } from '@pawlink/contracts';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError } from './api-error.js';
import { assignRequestId, newRequestId } from './request-id.js';

/**
 * node:http counts the target and the header fields (every name and value) together against
 * `maxHeaderSize`, and refuses a head that reaches it before any handler runs. Set just above the
 * two limits added up, so each limit is checked exactly by `refuseMalformedHead`, and node's
 * refusal only meets heads over both.
 */
export const MAX_HEADER_SIZE = REQUEST_TARGET_LIMIT_BYTES + HEADER_FIELDS_LIMIT_BYTES + 1;

/** How long a refused connection stays open after its answer, so the client reads it before the close. */
const LINGER_MS = 1000;

const targetTooLong = (): ApiError =>
  new ApiError('REQUEST_HEAD_TOO_LARGE', {
    httpStatus: 414,
    message: `The request target (path and query) is too long: at most ${REQUEST_TARGET_LIMIT_BYTES} bytes.`,
  });

const fieldsTooLarge = (): ApiError =>
  new ApiError('REQUEST_HEAD_TOO_LARGE', {
    message: `The request's header fields are too large: at most ${HEADER_FIELDS_LIMIT_BYTES} bytes of names and values in all.`,
  });

function headerFieldBytes(rawHeaders: string[]): number {
  let bytes = 0;
  for (const part of rawHeaders) bytes += part.length;
  return bytes;
}

/** Node's parser reason (`Invalid method encountered`), a fixed phrase of llhttp's, as the end of a sentence. */
function parserReason(error: { reason?: unknown }): string {
  const reason = typeof error.reason === 'string' && /^[\w .,:'/-]{1,100}$/.test(error.reason) ? error.reason : '';
  return reason === '' ? 'it could not be parsed' : reason.charAt(0).toLowerCase() + reason.slice(1);
}

/**
 * Whether the request whose bytes begin `packet` has a target over the limit: its request line is
 * longer than the limit plus a method and a version, or the packet ends before the line does.
 */
function targetOverLimit(packet: unknown): boolean {
  if (!Buffer.isBuffer(packet) || !/^[A-Z]{1,20} /.test(packet.subarray(0, 21).toString('latin1'))) return false;
  const lineEnd = packet.indexOf('\n');
  const line = packet.subarray(0, lineEnd === -1 ? packet.length : lineEnd).toString('latin1');
  const target = line.slice(line.indexOf(' ') + 1).replace(/ HTTP\/\S*\s*$/, '');
  return target.length > REQUEST_TARGET_LIMIT_BYTES;
}

/** The JSON failure for a client error node:http reports; undefined for a connection that broke (nothing to answer). */
function refusalFor(error: Error & { code?: unknown; rawPacket?: unknown; reason?: unknown }): ApiError | undefined {
  const code = typeof error.code === 'string' ? error.code : '';
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return new ApiError('REQUEST_TIMEOUT');
  if (code === 'HPE_HEADER_OVERFLOW') return targetOverLimit(error.rawPacket) ? targetTooLong() : fieldsTooLarge();
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW')
    return new ApiError('BODY_TOO_LARGE', {
      message: 'Request body too large: its chunk extensions are over the limit.',
    });
  if (code.startsWith('HPE_'))
    return new ApiError('MALFORMED_BODY', { message: `Malformed request: ${parserReason(error)}.` });
  return undefined;
}

const jsonHeaders = (refusal: ApiError, body: string): Record<string, string> => ({
  ...refusal.headers,
  'Content-Type': 'application/json; charset=utf-8',
  'Content-Length': String(Buffer.byteLength(body)),
  Connection: 'close',
});

/** Answers on a response node:http made, and closes the connection after it. */
function answer(res: ServerResponse, refusal: ApiError): void {
  const body = JSON.stringify(refusal.toBody());
  if (!res.hasHeader('X-Request-Id')) res.setHeader('X-Request-Id', newRequestId());
  res.shouldKeepAlive = false;
  res.writeHead(refusal.httpStatus, jsonHeaders(refusal, body));
  res.end(body);
}

/** Answers on a bare connection (no request object exists), then closes it once the client had time to read. */
function answerRaw(socket: Duplex, refusal: ApiError): void {
  const body = JSON.stringify(refusal.toBody());
  const headers = { ...jsonHeaders(refusal, body), 'X-Request-Id': newRequestId(), Date: new Date().toUTCString() };
  const head = [
    `HTTP/1.1 ${refusal.httpStatus} ${http.STATUS_CODES[refusal.httpStatus] ?? 'Error'}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  // A close right after the write would reset a connection whose client is still sending, and
  // could take the answer with it: end our side, and close a client that does not close its own.
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  const linger = setTimeout(() => socket.destroy(), LINGER_MS);
  linger.unref();
  socket.once('close', () => clearTimeout(linger));
}

const answered = new WeakSet<Duplex>();

/**
 * The server's `clientError` listener (docs/api.md §1, protocol-level answers): what node:http would answer with an empty
 * body, answered as JSON — 408 code 1016 for a request not received in time (slow headers or a
 * slow body), 414 / 431 code 1015 for a head over the limits, 400 code 1026 for a request that
 * cannot be parsed. While the connection allows it: once an answer has begun there, or the client
 * has gone, the connection is only closed.
 */
export function answerClientError(error: Error, socket: Duplex): void {
  if (answered.has(socket)) return;
  const refusal = refusalFor(error);
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (!refusal || !socket.writable || inFlight?.headersSent === true) {
    socket.destroy();
    return;
  }
  answered.add(socket);
  // A request whose body is late has its response already: answer on it, with its request id.
  if (inFlight) answer(inFlight, refusal);
  else answerRaw(socket, refusal);
}

/**
 * Checks of a parsed request head, before any handler: a target over 8 KiB (414 code 1015), header
 * fields over 16 KiB in all (431 code 1015), an HTTP/1.1 request without `Host` (400 code 1026,
 * which node:http would answer with an empty body). True when it answered.
 */
export function refuseMalformedHead(req: IncomingMessage, res: ServerResponse): boolean {
  let refusal: ApiError | undefined;
  if ((req.url ?? '').length > REQUEST_TARGET_LIMIT_BYTES) refusal = targetTooLong();
  else if (headerFieldBytes(req.rawHeaders) > HEADER_FIELDS_LIMIT_BYTES) refusal = fieldsTooLarge();
  else if (req.httpVersion === '1.1' && req.headers.host === undefined)
    refusal = new ApiError('MALFORMED_BODY', {
      message: 'Malformed request: an HTTP/1.1 request must carry a Host header.',
    });
  if (!refusal) return false;
  assignRequestId(req, res);
  answer(res, refusal);
  return true;
}

/** A CONNECT request: this is no proxy. Node would close the connection without a word. */
export function refuseConnect(_req: IncomingMessage, socket: Duplex): void {
  answered.add(socket);
  answerRaw(
    socket,
    new ApiError('MALFORMED_BODY', { message: 'Malformed request: CONNECT is not served here (this is not a proxy).' }),
  );
}
