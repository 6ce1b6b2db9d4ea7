import { presentedKey } from '@pawlink/auth';
import { s } from '@pawlink/contracts';
import { empty, header, json, successWith } from '@pawlink/contracts/openapi';
import { rateLimit, requireKey } from '@pawlink/service-kit';
import { clearConsoleCookie, consoleSessionId, fromConsole, setConsoleCookie } from '../http/console-session.http.js';
import { CONSOLE_TAGS, shortenerEndpoint } from './shortener.deps.js';

/**
 * POST /console/session: the console's sign-in. The key comes as every client sends it
 * (`Authorization`), so the same guards check it: 1013 without one, 1010/1011/1012 for a bad one
 * (the invalid-key throttle counting it), 1022 without the `shortener` flag; then
 * `shortener.read`. The answer sets the session cookie (HttpOnly, SameSite=Strict, Secure when
 * SHORTENER_URL is https); the key itself never reaches the browser's storage.
 */
export const openConsoleSessionEndpoint = shortenerEndpoint({
  operationId: 'openConsoleSession',
  summary: 'Sign in to the console',
  description:
    'Starts a console session for the presented key (8 hours at most) and sets its cookie `pawlink_console` (HttpOnly, SameSite=Strict, Secure on https). Requests that send `X-Pawlink-Console` and no `Authorization` are then answered as if they carried the key; without that header the cookie is never read (CSRF defence).',
  tags: CONSOLE_TAGS,
  method: 'post',
  path: '/console/session',
  guards: [requireKey('shortener'), rateLimit('shortener.read')],
  fields: {},
  responses: {
    200: json(
      'Signed in; `Set-Cookie` carries the session.',
      successWith(s.object({ expiresAt: s.dateTime({ description: 'When the session ends.' }) })),
      { 'Cache-Control': header('Cache-Control', true) },
    ),
  },
  handler:
    ({ config, services }) =>
    async ({ req, res }) => {
      // requireKey ran first: a key was presented and accepted.
      const session = await services.consoleSession.open(presentedKey(req)!);
      setConsoleCookie(res, session.id, config.urls.shortener.startsWith('https:'));
      res.set('Cache-Control', 'no-store');
      return { status: 200, body: { success: true, data: { expiresAt: session.expiresAt.toISOString() } } };
    },
});

/**
 * DELETE /console/session: signs out. The session named by the cookie ends (only for a request
 * from the console: its header) and the cookie is cleared; 204 whether or not there was one.
 */
export const closeConsoleSessionEndpoint = shortenerEndpoint({
  operationId: 'closeConsoleSession',
  summary: 'Sign out of the console',
  description:
    'Ends the session of the `pawlink_console` cookie when the request sends `X-Pawlink-Console`, and clears the cookie. 204 whether or not a session was open.',
  tags: CONSOLE_TAGS,
  method: 'delete',
  path: '/console/session',
  refuseOtherMethods: true,
  guards: [],
  fields: {},
  responses: { 204: empty('Signed out.', { 'Cache-Control': header('Cache-Control', true) }) },
  handler:
    ({ config, services }) =>
    async ({ req, res }) => {
      const id = fromConsole(req) ? consoleSessionId(req) : undefined;
      if (id !== undefined) await services.consoleSession.close(id);
      clearConsoleCookie(res, config.urls.shortener.startsWith('https:'));
      res.set('Cache-Control', 'no-store').status(204).end();
    },
});
