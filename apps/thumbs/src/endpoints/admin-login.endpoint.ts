import { header } from '@pawlink/contracts/openapi';
import { ApiError, inBody, parsedBody, rateLimit } from '@pawlink/service-kit';
import { ADMIN_FLAG } from '../domain/admin-access.rules.js';
import { ADMIN_HOME, adminCookie, loginForm, redirect, to } from '../http/admin-pages.http.js';
import { setAdminCookie } from '../http/admin-session-cookie.http.js';
import { ADMIN_PAGE_HEADERS, renderAdminLoginPage } from '../views/admin-login.page.js';
import { adminKey } from './thumbnail.fields.js';
import { ADMIN_TAGS, noStoreStep, sameSite, thumbsEndpoint } from './thumbs.deps.js';

/** GET /admin/login: the form where the operator pastes an admin key (docs/operating.md, "The queue dashboard"). */
export const adminLoginFormEndpoint = thumbsEndpoint({
  operationId: 'adminLoginForm',
  summary: 'The login form of the queue dashboard',
  tags: ADMIN_TAGS,
  method: 'get',
  path: '/admin/login',
  guards: [noStoreStep()],
  fields: {},
  usesDependencies: false,
  responses: { 200: loginForm("The form (no script; CSP `default-src 'none'`).") },
  handler:
    () =>
    ({ res }) => {
      res.status(200).set(ADMIN_PAGE_HEADERS).send(renderAdminLoginPage());
    },
});

/**
 * POST /admin/login: cross-site check → rate limit → body → validation → handler, which exchanges
 * an admin key for a session cookie and sends the browser to the dashboard (303). The key is
 * checked as the dashboard checks one in `Authorization` (`verifyKey`): every key that is not an
 * admin key gets the same 403 1022, and the address's invalid-key limit applies. A refusal shows
 * the form again with the reason to a browser, and the contract's error to an API client.
 */
export const adminLoginEndpoint = thumbsEndpoint({
  operationId: 'adminLogin',
  summary: 'Log in to the queue dashboard with an admin key',
  description:
    'A session cookie for a key with the `admin` flag, and a 303 to the dashboard. The key is checked as the dashboard checks one in `Authorization`: ' +
    'every key that is not an active, enabled admin key gets the same 403 1022, and the 30 invalid keys a minute per address apply (429 1000, bucket `auth.invalid`). ' +
    'A refused key is shown the form again with the reason (to a browser: `Accept` preferring HTML) or gets the code (JSON). A cross-site post is refused with 403 1023 before the key is looked at.',
  tags: ADMIN_TAGS,
  method: 'post',
  path: '/admin/login',
  guards: [noStoreStep(), sameSite(), rateLimit('thumbs.admin-login'), parsedBody()],
  fields: { key: inBody(adminKey()) },
  body: { description: 'The API key pasted in the form.' },
  responses: {
    303: redirect('Logged in: to the dashboard, with the session cookie (HttpOnly, SameSite=Strict, Path=/admin).', {
      Location: to(ADMIN_HOME),
      'Set-Cookie': adminCookie(
        'The session: `pawlink_admin=<token>; Path=/admin; HttpOnly; SameSite=Strict; Max-Age=<THUMBS_ADMIN_SESSION_TTL_SECONDS>`.',
      ),
      'Cache-Control': header('Cache-Control', true),
    }),
    401: loginForm('To a browser: the form again with the reason (no key).'),
    403: loginForm('To a browser: the form again with the reason (not an admin key, whatever is wrong with it).'),
    429: loginForm(
      'To a browser: the form again with the reason, when its address presented too many invalid keys (too many attempts are answered in JSON).',
    ),
  },
  errors: ['CROSS_SITE_REQUEST', 'MISSING_FLAG', 'RATE_LIMITED_ROUTE'],
  handler:
    ({ services, guards, config }) =>
    async ({ input: { key }, req, res }) => {
      let session: { token: string; maxAgeSeconds: number };
      try {
        session = await services.adminLogin.login(await guards.verifyKey(key, ADMIN_FLAG, req, res));
      } catch (error) {
        if (error instanceof ApiError && req.accepts(['application/json', 'text/html']) === 'text/html') {
          for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
          res
            .status(error.httpStatus)
            .set(ADMIN_PAGE_HEADERS)
            .send(renderAdminLoginPage({ error: error.message }));
          return;
        }
        throw error;
      }
      setAdminCookie(res, session.token, session.maxAgeSeconds, config.thumbs.adminCookieSecure);
      res.redirect(303, ADMIN_HOME);
    },
});
