/**
 * `pnpm bench` runs this first: the floor the framework itself sets. A bare Express 5 route
 * against node:http, both answering the same fixed JSON with no I/O, once with Express's defaults
 * and once with our settings (`applyExpressSettings`): the ratio is the most any Express endpoint
 * can reach against a node:http ceiling that does no more than the route.
 */
import { fileURLToPath } from 'node:url';
import { startCeiling } from '../processes.js';
import { runHttpBench } from '../run-bench.js';

const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));

await runHttpBench('framework floor', async ({ defer, measure }) => {
  const nodeHttp = await startCeiling('node:http floor', here('./node-http-server.js'));
  defer(nodeHttp.stop);
  for (const [settings, label] of [
    ['stock', "Express's defaults"],
    ['pawlink', 'our settings'],
  ] as const) {
    process.env.BENCH_FLOOR_SETTINGS = settings;
    const expressServer = await startCeiling(`Express floor (${label})`, here('./express-server.js'));
    defer(expressServer.stop);
    await measure({
      endpoint: `reference: bare Express 5 (${label}), one GET route, res.json (no I/O)`,
      ceiling: 'node:http writing the same JSON',
      target: null,
      pawlinkUrl: expressServer.url,
      ceilingUrl: nodeHttp.url,
      requests: [{ path: '/furry.hug' }],
    });
  }
});
