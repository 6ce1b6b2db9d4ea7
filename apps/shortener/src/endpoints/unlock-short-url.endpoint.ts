import { empty, header, media } from '@pawlink/contracts/openapi';
import { field, inBody, inPath, parsedBody } from '@pawlink/service-kit';
import { s } from '@pawlink/contracts';
import {
  expiredPage,
  passwordFormPage,
  sendExpired,
  sendPasswordForm,
  sendPasswordTriesLimited,
  sendRedirectLimited,
  sendUnknownCode,
} from '../http/public-answers.http.js';
import { decidedCacheControl, redirectCacheControl, sendRedirect } from '../http/send-redirect.http.js';
import { isBotAgent } from '../domain/visitor.rules.js';
import { publicCode } from './short-url.fields.js';
import { SHORT_URL_TAGS, shortenerEndpoint } from './shortener.deps.js';

/** The form's `password`: whatever was typed; anything but a string is a wrong password, never a JSON error. */
const typedPassword = () =>
  field({
    schema: s.string({ description: 'What the visitor typed into the password form.' }),
    codes: [],
    parse: (value): string | null => (typeof value === 'string' ? value : null),
  });

/**
 * POST /:code, public: the password form of a protected link posts here (urlencoded `password`,
 * within BODY_LIMIT_BYTES). Every request asks MySQL, so each counts against the lookup limit;
 * then the address's tries on the link (at most 10 wrong a minute, 429 1090 after); the right
 * password is the visit (302, counted then, `no-store`), a wrong one the form again (401 1089).
 */
export const unlockShortUrlEndpoint = shortenerEndpoint({
  operationId: 'unlockShortUrl',
  summary: "Send a protected link's password",
  description:
    'What the password form of `GET /{code}` posts. A link without a password is followed as by `GET`. Counts against the lookup limit like a redirect that memory cannot answer. Answers browsers: text or HTML, never JSON (but for a body that cannot be read).',
  tags: SHORT_URL_TAGS,
  method: 'post',
  path: '/:code',
  guards: [parsedBody()],
  fields: { code: inPath(publicCode()), password: inBody(typedPassword()) },
  body: { description: 'The password form: `password=…` (urlencoded) or JSON `{password}`.' },
  responses: {
    302: empty('The right password: to the target, counted as a visit; `Cache-Control: no-store`.', {
      Location: header('Location', true),
      'Cache-Control': header('Cache-Control', true),
    }),
    401: passwordFormPage('A wrong password: the form again, saying so and ending with "(code 1089)".'),
    404: media('"Unknown short url code." (plain text).', ['text/plain']),
    410: expiredPage(),
    429: media(
      'More than 10 wrong passwords from this address for this link in a minute: the form (HTML), saying when to try again, ending with "(code 1090)"; or the lookup limit (text, ending with "(code 1000)" or "(code 1001)", with the `X-RateLimit-*` headers).',
      ['text/html', 'text/plain'],
      { 'Retry-After': header('Retry-After', true) },
    ),
  },
  handler: ({ services, limitLookups, config }) => {
    const plainCacheControl = redirectCacheControl(config.shortener.redirectMaxAgeSeconds);
    return async ({ input: { code, password }, req, res }) => {
      const limited = await limitLookups.count(req, res);
      if (limited) return sendRedirectLimited(res, limited);
      if (code === null) return sendUnknownCode(res);
      const userAgent = req.get('user-agent');
      const query = req.url.indexOf('?');
      const source = {
        referer: req.get('referer'),
        userAgent,
        address: req.ip ?? '',
        acceptLanguage: req.get('accept-language'),
        rawQuery: query === -1 ? '' : req.url.slice(query + 1),
      };
      const outcome = await services.unlockShortUrl.unlock(code, password, !isBotAgent(userAgent), source);
      if (outcome.kind === 'unknown') sendUnknownCode(res);
      else if (outcome.kind === 'expired') sendExpired(res, outcome.expired);
      else if (outcome.kind === 'password') sendPasswordForm(res, outcome.fullURL);
      else if (outcome.kind === 'wrong-password') sendPasswordForm(res, outcome.fullURL, true);
      else if (outcome.kind === 'too-many-tries')
        sendPasswordTriesLimited(res, outcome.fullURL, outcome.retryAfterSeconds);
      else sendRedirect(res, outcome.url, decidedCacheControl(outcome.decidedBy, plainCacheControl));
    };
  },
});
