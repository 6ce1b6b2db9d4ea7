import { ADMIN_HOME, redirect, to } from '../http/admin-pages.http.js';
import { ADMIN_TAGS, noStoreStep, thumbsEndpoint } from './thumbs.deps.js';

/** GET /admin: to the queue dashboard (302). */
export const adminHomeEndpoint = thumbsEndpoint({
  operationId: 'adminHome',
  summary: 'To the queue dashboard',
  tags: ADMIN_TAGS,
  method: 'get',
  path: '/admin',
  guards: [noStoreStep()],
  fields: {},
  usesDependencies: false,
  responses: { 302: redirect('To the dashboard.', { Location: to(ADMIN_HOME) }) },
  handler:
    () =>
    ({ res }) => {
      res.redirect(302, ADMIN_HOME);
    },
});
