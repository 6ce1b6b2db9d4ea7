import { request } from '@pawlink/test-kit';
import { describeServiceStatus } from '@pawlink/test-kit/suites/service-status';
import { expect, it } from 'vitest';
import { startHarness, type Harness } from './support.js';

describeServiceStatus<Harness>({
  service: 'shortener',
  start: () => startHarness('status'),
  buckets: [
    'global',
    'shortener.create',
    'shortener.lookup',
    'shortener.manage',
    'shortener.read',
    'shortener.stats',
    'status',
  ],
  key: (h) => h.key,
  describesKey: { name: 'test', flags: ['shortener'], active: true, disabled: false },
  setReadOnly: (h, on) => h.setReadOnly(on),
  more: (harness) => {
    it('is not a short code: anonymous requests get the anonymous limits, other methods 405', async () => {
      const h = harness();
      const res = await request(`${h.url}/status`);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        key: null,
        limits: { 'shortener.create': { limit: 120, remaining: 120 } },
      });
      const patch = await request(`${h.url}/status`, {
        method: 'PATCH',
        headers: { authorization: h.key, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(patch.status).toBe(405);
      expect(patch.body.code).toBe(1025);
    });
  },
});
