import { request, serveForTest, type TestServer } from '@pawlink/test-kit';
import type { Request, Response } from 'express';
import { body, header, param, query } from 'express-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError,
  createLogger,
  createServiceApp,
  fail,
  failWith,
  parsedBy,
  validate,
  validated,
  type ReadOnlySwitch,
} from '../src/index.js';

let server: TestServer;
const logLines: string[] = [];

beforeAll(async () => {
  const logger = createLogger('images', 'error', {
    stream: new (await import('node:stream')).Writable({
      write: (chunk: Buffer, _e, done) => (logLines.push(chunk.toString()), done()),
    }),
  });
  const { app, finalize } = createServiceApp({
    service: 'images',
    config: { bodyLimitBytes: 1024, trustProxy: 0 },
    logger,
    readOnly: { enabled: false } as ReadOnlySwitch,
  });
  app.get(
    '/items/:id',
    validate(
      param('id').isInt({ min: 1 }).withMessage(fail('INVALID_POST_ID')).toInt(),
      query('amount')
        .optional()
        .isInt()
        .withMessage(failWith('INVALID_QUERY_VALUE', (value) => `amount "${String(value)}" is not an integer.`))
        .toInt(),
      query('amount').optional().isInt({ max: 5 }).withMessage(fail('AMOUNT_TOO_HIGH')),
    ),
    (req: Request, res: Response) => {
      res.json({ success: true, input: validated(req) });
    },
  );
  app.post(
    '/parse',
    validate(
      parsedBy(body('url'), (value) => {
        if (typeof value !== 'string' || !value.startsWith('https://'))
          throw new ApiError('INVALID_URL', { message: 'The provided url is invalid: https only.' });
        return value.toLowerCase();
      }),
    ),
    (req: Request, res: Response) => {
      res.json({ success: true, input: validated(req) });
    },
  );
  app.get(
    '/headers/:id',
    validate(
      param('id').isInt().withMessage(fail('INVALID_POST_ID')).toInt(),
      header('x-amount').isInt({ max: 5 }).withMessage(fail('AMOUNT_TOO_HIGH')).toInt(),
    ),
    (req: Request, res: Response) => {
      res.json({ success: true, input: validated(req) });
    },
  );
  app.get('/uncoded', validate(query('q').isInt()), (_req: Request, res: Response) => {
    res.json({ success: true });
  });
  finalize();
  server = await serveForTest(app);
});
afterAll(async () => {
  await server.close();
});

describe('validate()', () => {
  it('hands the handler the sanitized values', async () => {
    const res = await request(`${server.url}/items/7?amount=3`);
    expect(res.body).toEqual({ success: true, input: { id: 7, amount: 3 } });
  });

  it('answers the first failure with its registry code and message, in the order the chains are given', async () => {
    const both = await request(`${server.url}/items/zero?amount=x`);
    expect([both.status, both.body]).toEqual([404, { success: false, code: 1062, error: 'Invalid post id.' }]);
    const amount = await request(`${server.url}/items/7?amount=x`);
    expect([amount.status, amount.body]).toEqual([
      400,
      { success: false, code: 1057, error: 'amount "x" is not an integer.' },
    ]);
    const high = await request(`${server.url}/items/7?amount=9`);
    expect([high.status, high.body.code]).toEqual([400, 1052]);
  });

  it('turns a domain rule throwing an ApiError into that failure, and keeps what it converted', async () => {
    const bad = await request(`${server.url}/parse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'http://x' }),
    });
    expect([bad.status, bad.body]).toEqual([
      422,
      { success: false, code: 1073, error: 'The provided url is invalid: https only.' },
    ]);
    const good = await request(`${server.url}/parse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://X.example' }),
    });
    expect(good.body).toEqual({ success: true, input: { url: 'https://x.example' } });
  });

  it('answers code 0 and logs it when a chain names no contract error', async () => {
    const res = await request(`${server.url}/uncoded?q=x`);
    expect([res.status, res.body.code]).toEqual([500, 0]);
    expect(logLines.join('')).toContain('validation of \\"q\\" failed without a contract error');
  });

  it('answers a URL it has seen as it did the first time (outcomes of URL-only routes are remembered), failures included', async () => {
    for (let i = 0; i < 3; i++) {
      const good = await request(`${server.url}/items/8?amount=2`);
      expect(good.body).toEqual({ success: true, input: { id: 8, amount: 2 } });
      const bad = await request(`${server.url}/items/8?amount=y`);
      expect([bad.status, bad.body]).toEqual([
        400,
        { success: false, code: 1057, error: 'amount "y" is not an integer.' },
      ]);
    }
    const other = await request(`${server.url}/items/9`);
    expect(other.body).toEqual({ success: true, input: { id: 9 } });
  });

  it('checks every request again when a chain reads more than the URL (a header)', async () => {
    const low = await request(`${server.url}/headers/3`, { headers: { 'x-amount': '2' } });
    expect(low.body).toEqual({ success: true, input: { id: 3, 'x-amount': 2 } });
    const high = await request(`${server.url}/headers/3`, { headers: { 'x-amount': '9' } });
    expect([high.status, high.body.code]).toEqual([400, 1052]);
  });
});
