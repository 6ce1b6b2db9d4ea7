import type { Request } from 'express';
import { body, matchedData, query, type ValidationChain } from 'express-validator';
import { describe, expect, it } from 'vitest';
import { fail } from './input-failure.js';
import { runValidation } from './run-validation.js';

/** What express-validator itself makes of the chains: every chain run, the first failure's message, or the matched data. */
async function byExpressValidator(
  chains: ValidationChain[],
  request: { query?: Record<string, unknown>; body?: unknown },
): Promise<unknown> {
  const req = { query: {}, params: {}, headers: {}, ...request } as unknown as Request;
  for (const chain of chains) {
    const result = await chain.run(req);
    if (!result.isEmpty()) return { ok: false, message: (result.array()[0]!.msg as Error).message };
  }
  return { ok: true, input: matchedData(req, { onlyValidData: true }) };
}

async function byValidate(
  chains: ValidationChain[],
  request: { query?: Record<string, unknown>; body?: unknown },
): Promise<unknown> {
  const outcome = await runValidation(chains, request);
  return outcome.ok ? outcome : { ok: false, message: outcome.message };
}

const chains = (): ValidationChain[] => [
  query('page').optional().isInt().withMessage(fail('INVALID_QUERY_VALUE', 'page')),
  body('code').optional({ values: 'null' }).isString().withMessage(fail('INVALID_CODE', 'code must be a string')),
  body('credit')
    .optional()
    .customSanitizer((value: unknown) => (value === null ? 'Unknown' : value))
    .isString()
    .withMessage(fail('CREDIT_TOO_LONG', 'credit')),
  body('length').optional().isInt({ max: 2 }).withMessage(fail('INVALID_CODE', 'length at most 2')),
  body('url').isString().withMessage(fail('INVALID_URL', 'url')),
];

describe('validate() skips the optional chains of absent fields', () => {
  it.each([
    ['only the required field', { body: { url: 'https://e.example/' } }],
    [
      'every field',
      { query: { page: '2' }, body: { url: 'https://e.example/', code: 'abc', credit: 'me', length: 1 } },
    ],
    [
      'a null that one optional() takes as absent and another sanitizes',
      { body: { url: 'https://e.example/', code: null, credit: null } },
    ],
    ['an optional field that fails', { body: { url: 'https://e.example/', code: 7 } }],
    ['a field present as undefined', { body: { url: 'https://e.example/', code: undefined } }],
    ['a required field that is absent', { body: {} }],
    ['no body at all', { body: undefined }],
    ['an array body', { body: ['https://e.example/'] }],
    // express-validator reads `length` of a string body through its prototype (3 > 2 fails): such bodies are left to it
    ['a JSON string body', { body: 'abc' }],
  ])('with %s, the outcome is what running every chain gives', async (_case, request) => {
    const expected = await byExpressValidator(chains(), request);
    expect(await byValidate(chains(), request)).toEqual(expected);
  });

  it('still reports the failure of a string body read through its prototype', async () => {
    expect(await byValidate(chains(), { body: 'abc' })).toEqual({ ok: false, message: 'length at most 2' });
  });
});
