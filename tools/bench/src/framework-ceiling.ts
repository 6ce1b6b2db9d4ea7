/**
 * The framework ceiling: a ceiling's handler on one route of a bare Express 5 app with the
 * settings every Pawlink app runs with (`applyExpressSettings`), and nothing else: no request id
 * context, guards, validation, metrics or logging. Pawlink against it is what our own layers cost
 * above the framework. Loaded by `serveCeiling` only when a ceiling is started as one.
 */
import express from 'express';
import type { RequestListener } from 'node:http';
import { applyExpressSettings } from '@pawlink/service-kit/express-settings';

export function expressHandler(
  route: string,
  handler: RequestListener,
  method: 'get' | 'post' = 'get',
): RequestListener {
  const app = express();
  applyExpressSettings(app);
  app[method](route, (req, res) => handler(req, res));
  return app;
}
