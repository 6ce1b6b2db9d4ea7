/**
 * The node:http reference of the generator check: the same two bytes for every request, no work
 * at all, so its rate is the most any node:http server (every ceiling) can reach here.
 */
import { serveCeiling } from './ceiling-server.js';

const BODY = Buffer.from('ok');

serveCeiling((_req, res) => {
  res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': BODY.length });
  res.end(BODY);
});
