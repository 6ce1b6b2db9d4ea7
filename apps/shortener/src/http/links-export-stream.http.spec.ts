import { createLogger } from '@pawlink/service-kit';
import express from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { streamExport } from './links-export-stream.http.js';

/** A 1 MB page: a client that reads nothing holds the writer back within a few pages. */
const PAGE = 'x'.repeat(1 << 20);

let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

describe('streamExport', () => {
  it('reads no page it will not write once the client has left, and closes the pages', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger('shortener', 'debug', {
      stream: new Writable({
        write: (chunk: Buffer, _e, done) => (
          lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>),
          done()
        ),
      }),
    });
    let pulled = 0;
    let rendered = 0;
    let closed = false;
    async function* pages(): AsyncGenerator<string> {
      try {
        for (;;) {
          pulled += 1;
          yield await Promise.resolve(PAGE);
        }
      } finally {
        closed = true;
      }
    }
    let finished!: () => void;
    const done = new Promise<void>((resolve) => (finished = resolve));
    const app = express();
    app.get('/', (_req, res) => {
      const render = (page: string): string => ((rendered += 1), page);
      void streamExport(res, 'head\n', pages(), render, { owner: 1, format: 'csv', pages: 0, logger }).then(finished);
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server!.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => {
      const req = http.get(`http://127.0.0.1:${port}/`, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => undefined);
    });
    await done;
    expect(closed).toBe(true);
    expect(rendered).toBe(pulled);
    expect(lines).toEqual([expect.objectContaining({ level: 'debug', pages: pulled, owner: 1 })]);
  });
});
