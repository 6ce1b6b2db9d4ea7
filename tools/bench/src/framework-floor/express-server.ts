/**
 * Express 5 with one parameterised GET route answering the fixed answer with its stock
 * `res.json`, and nothing else: no middleware, no I/O. What it leaves of node:http's rate bounds
 * every endpoint served through Express, whatever the endpoint does.
 */
import express from 'express';
import { serveCeiling } from '../ceiling-server.js';
import { FLOOR_ANSWER } from './answer.js';

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.get('/:category', (_req, res) => {
  res.json(FLOOR_ANSWER);
});
serveCeiling(app);
