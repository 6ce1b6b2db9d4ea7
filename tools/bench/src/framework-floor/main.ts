/**
 * `pnpm bench` runs this first: the floor the framework itself sets. A bare Express 5 route
 * against node:http, both answering the same fixed JSON with no I/O: the ratio is the most any
 * Express endpoint can reach against a node:http ceiling that does no more than the route.
 */
import { fileURLToPath } from 'node:url';
import { startCeiling } from '../processes.js';
import { runHttpBench } from '../run-bench.js';

const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));

await runHttpBench('framework floor', async ({ defer, measure }) => {
  const expressServer = await startCeiling('Express floor', here('./express-server.js'));
  defer(expressServer.stop);
  const nodeHttp = await startCeiling('node:http floor', here('./node-http-server.js'));
  defer(nodeHttp.stop);
  await measure({
    endpoint: 'reference: bare Express 5, one GET route, res.json (no I/O)',
    ceiling: 'node:http writing the same JSON',
    target: null,
    pawlinkUrl: expressServer.url,
    ceilingUrl: nodeHttp.url,
    requests: [{ path: '/furry.hug' }],
  });
});
