import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The ceiling: a bare node:http server answering 302 from an in-memory Map, run in its own
 * process (forked by bench/main.ts), which sends it the codes and gets the port back.
 */
process.once('message', (message: { targets: [string, string][] }) => {
  const targets = new Map(message.targets);
  const server = http.createServer((req, res) => {
    const location = targets.get((req.url ?? '').slice(1));
    if (location === undefined) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('Unknown short url code.');
      return;
    }
    res.writeHead(302, { Location: location, 'Content-Length': '0' });
    res.end();
  });
  server.listen(0, '127.0.0.1', () => {
    process.send?.({ port: (server.address() as AddressInfo).port });
  });
  process.once('disconnect', () => server.close());
});
