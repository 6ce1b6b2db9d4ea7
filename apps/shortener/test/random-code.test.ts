import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, startHarness, uniqueUrl, type Harness } from './support.js';

// Scripted "random" codes so collisions happen on demand; the real source is the CSPRNG.
const script = ['Collide1', 'Collide1', 'Collide1', 'Fresh002'];
let h: Harness;
beforeAll(async () => {
  h = await startHarness('sh-random', {}, { generateCode: () => script.shift() ?? 'Collide1' });
});
afterAll(async () => {
  await h.close();
});

describe('random code collisions', () => {
  it('retries with a new code when the random one is taken', async () => {
    const first = await create(h, { url: uniqueUrl() });
    expect(first.status).toBe(201);
    expect(first.body.data.code).toBe('Collide1');
    const second = await create(h, { url: uniqueUrl() });
    expect(second.status).toBe(201);
    expect(second.body.data.code).toBe('Fresh002');
  });

  it('gives up after a bounded number of collisions with a plain internal error', async () => {
    const res = await create(h, { url: uniqueUrl() });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      success: false,
      error: 'There was an internal error while attempting to perform that action.',
      code: 0,
    });
  });
});
