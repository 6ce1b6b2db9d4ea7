import { header } from '@pawlink/contracts/openapi';
import { ADMIN_LOGIN_PATH, adminCookie, redirect, to } from '../http/admin-pages.http.js';
import { adminSessionToken, setAdminCookie } from '../http/admin-session-cookie.http.js';
import { ADMIN_TAGS, noStoreStep, sameSite, thumbsEndpoint } from './thumbs.deps.js';

/** POST /admin/logout: cross-site check → handler, which ends the session (in Redis and the cookie) and shows the login form. */
export const adminLogoutEndpoint = thumbsEndpoint({
  operationId: 'adminLogout',
  summary: 'Log out of the queue dashboard',
  tags: ADMIN_TAGS,
  method: 'post',
  path: '/admin/logout',
  guards: [noStoreStep(), sameSite()],
  fields: {},
  responses: {
    303: redirect('The session is deleted and the cookie cleared: to the login form.', {
      Location: to(ADMIN_LOGIN_PATH),
      'Set-Cookie': adminCookie('The cleared cookie (`Max-Age=0`).'),
      'Cache-Control': header('Cache-Control', true),
    }),
  },
  errors: ['CROSS_SITE_REQUEST'],
  handler:
    ({ services, config }) =>
    async ({ req, res }) => {
      const token = adminSessionToken(req);
      if (token !== undefined) await services.adminLogout.logout(token);
      setAdminCookie(res, '', 0, config.thumbs.adminCookieSecure);
      res.setHeader('Cache-Control', 'no-store');
      res.redirect(303, ADMIN_LOGIN_PATH);
    },
});
