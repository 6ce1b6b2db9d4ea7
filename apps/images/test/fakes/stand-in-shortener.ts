import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { serveForTest, type TestServer } from '@pawlink/test-kit';

/**
 * How the stand-in answers `POST /create`: `ok` makes (or shares) a link per URL as the shortener
 * does; `down` drops every connection; `hang` never answers; `busy` answers 429 with
 * `Retry-After: retryAfter` (`busyAnswers` times, then it is `ok` again); `invalid` answers 200 with a
 * body that is no record; `refuse` answers 422 1073; `forbidden` 403 1022.
 */
export type StandInMode = 'ok' | 'down' | 'hang' | 'busy' | 'invalid' | 'refuse' | 'forbidden';

export interface StandInShortener {
  url: string;
  mode: StandInMode;
  /** Seconds sent in Retry-After while busy. */
  retryAfter: string;
  /** 429s left before `busy` turns back to `ok`. */
  busyAnswers: number;
  /** Every create asked for, in order, whatever was answered. */
  readonly requests: Array<{ url: unknown; editable: string | null; authorization: string | undefined; at: number }>;
  /** code → target url of the links made. */
  readonly links: Map<string, string>;
  /** The short URL the stand-in gives `target`. */
  shortUrlOf(target: string): string;
  close(): Promise<void>;
}

/** A stand-in for the shortener's public API, on a loopback port. */
export async function startStandInShortener(options: { key: string }): Promise<StandInShortener> {
  const codeOf = (target: string): string => createHash('sha1').update(target).digest('base64url').slice(0, 8);
  const answer = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
    res
      .writeHead(status, { 'content-type': 'application/json', ...headers })
      .end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const server: TestServer = await serveForTest((req, res) => void handle(req, res));
  const stand: StandInShortener = {
    url: '',
    mode: 'ok',
    retryAfter: '1',
    busyAnswers: Number.POSITIVE_INFINITY,
    requests: [],
    links: new Map(),
    shortUrlOf: (target) => `${stand.url}/${codeOf(target)}`,
    close: () => server.close(),
  };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://x');
    let text = '';
    for await (const chunk of req) text += String(chunk);
    if (req.method !== 'POST' || path.pathname !== '/create')
      return answer(res, 404, { success: false, error: 'Not found.', code: 1024 });
    const body = JSON.parse(text) as { url?: unknown };
    stand.requests.push({
      url: body.url,
      editable: path.searchParams.get('editable'),
      authorization: req.headers.authorization,
      at: Date.now(),
    });
    switch (stand.mode) {
      case 'down':
        req.socket.destroy();
        return;
      case 'hang':
        return;
      case 'busy':
        if (--stand.busyAnswers <= 0) stand.mode = 'ok';
        return answer(
          res,
          429,
          { success: false, error: 'You are being rate limited.', code: 1000 },
          { 'retry-after': stand.retryAfter },
        );
      case 'invalid':
        return answer(res, 200, { success: true, data: { code: 'x' } });
      case 'refuse':
        return answer(res, 422, {
          success: false,
          error: 'The provided url is invalid: private, loopback and reserved addresses are not allowed.',
          code: 1073,
        });
      case 'forbidden':
        return answer(res, 403, {
          success: false,
          error: 'Your API key does not have access to this service.',
          code: 1022,
        });
      case 'ok':
        break;
    }
    if (req.headers.authorization !== options.key)
      return answer(res, 401, { success: false, error: 'Invalid API key.', code: 1010 });
    if (typeof body.url !== 'string')
      return answer(res, 422, { success: false, error: 'The provided url is invalid.', code: 1073 });
    const code = codeOf(body.url);
    const existed = stand.links.has(code);
    stand.links.set(code, body.url);
    const record = {
      code,
      createdAt: new Date().toISOString(),
      modifiedAt: null,
      url: body.url,
      pos: stand.links.size,
      credit: 'Unknown',
      fullURL: `${stand.url}/${code}`,
      managementCode: null,
    };
    return answer(res, existed ? 200 : 201, { success: true, data: record });
  };
  stand.url = server.url;
  return stand;
}
