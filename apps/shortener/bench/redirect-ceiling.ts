/**
 * Ceiling of `GET /:code`: node:http and a Map lookup, writing the status and headers the
 * shortener writes (its own `sendRedirect`, and an X-Request-Id). No other work.
 */
import { readFileSync } from 'node:fs';
import { ceilingConfig, nextRequestId, serveCeiling } from '@pawlink/bench/ceiling';
import { sendRedirect } from '../src/http/send-redirect.http.js';

/** What bench/main.ts gives this ceiling. */
export interface RedirectCeilingConfig {
  /** JSON file of [code, url] pairs. */
  targetsFile: string;
  cacheControl: string;
}

const config = ceilingConfig<RedirectCeilingConfig>();
const targets = new Map(JSON.parse(readFileSync(config.targetsFile, 'utf8')) as Array<[string, string]>);

serveCeiling((req, res) => {
  const location = targets.get((req.url ?? '').slice(1));
  if (location === undefined) {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Request-Id': nextRequestId() });
    res.end('Unknown short url code.');
    return;
  }
  // The id goes with the other headers, as the shortener's fast path sends it.
  sendRedirect(res, location, config.cacheControl, nextRequestId());
});
