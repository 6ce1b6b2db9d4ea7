/**
 * Express 5 with one parameterised GET route answering the fixed answer with its stock
 * `res.json`, and nothing else: no middleware, no I/O. With BENCH_FLOOR_SETTINGS=pawlink it runs
 * with the settings every Pawlink app has (no ETag, no X-Powered-By, the query parsed once);
 * otherwise with Express's defaults. What it leaves of node:http's rate bounds every endpoint
 * served through Express, whatever the endpoint does.
 */
import express from 'express';
import { applyExpressSettings } from '@pawlink/service-kit/express-settings';
import { serveCeiling } from '../ceiling-server.js';
import { FLOOR_ANSWER } from './answer.js';

const app = express();
if (process.env.BENCH_FLOOR_SETTINGS === 'pawlink') applyExpressSettings(app);
app.get('/:category', (_req, res) => {
  res.json(FLOOR_ANSWER);
});
serveCeiling(app);
