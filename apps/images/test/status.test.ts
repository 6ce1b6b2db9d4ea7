import { request } from '@pawlink/test-kit';
import { describeServiceStatus } from '@pawlink/test-kit/suites/service-status';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support.js';

describeServiceStatus<Harness>({
  service: 'images',
  start: async () => {
    const h = await startHarness('img-status');
    // A category named like the route must not take it.
    await h.addCategory('status');
    await h.addImage('status', 1);
    return h;
  },
  buckets: ['global', 'images.bulk', 'images.info', 'images.random', 'status'],
  key: (h) => h.key(['images_bulk'], 250),
  describesKey: { flags: ['images_bulk'], bulkLimit: 250, active: true },
  more: (harness) => {
    it('is the status, not a category', async () => {
      const res = await request(`${harness().url}/status`);
      expect(res.body).not.toHaveProperty('images');
    });
  },
});

describe('GET /metrics on the public images URL', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness('img-metrics');
  });
  afterAll(async () => h.close());

  it('is an unknown route (1024), not a category', async () => {
    const res = await request(`${h.url}/metrics`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: expect.any(String), code: 1024 });
  });
});
