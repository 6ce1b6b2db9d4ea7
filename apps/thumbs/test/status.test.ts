import { request } from '@pawlink/test-kit';
import { describeServiceStatus } from '@pawlink/test-kit/suites/service-status';
import { expect, it } from 'vitest';
import { startThumbs, type ThumbsHarness } from './helpers.js';

describeServiceStatus<ThumbsHarness>({
  service: 'thumbs',
  // /status is not a post id.
  start: () => startThumbs(),
  buckets: ['global', 'status', 'thumbs.admin', 'thumbs.admin-login', 'thumbs.check', 'thumbs.create', 'thumbs.info'],
  key: (h) => h.key,
  describesKey: { flags: ['thumbs'], active: true },
  setReadOnly: (h, on) => h.setReadOnly(on),
  more: (harness) => {
    it('needs no key, and a key without the thumbs flag still sees its own status', async () => {
      const h = harness();
      expect((await request(`${h.url}/status`)).body.data.key).toBeNull();
      const res = await request(`${h.url}/status`, { headers: { authorization: h.keyWithoutFlag } });
      expect(res.status).toBe(200);
      expect(res.body.data.key.flags).toEqual(['shortener']);
    });
  },
});
