import type { ServiceName } from '@pawlink/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../http.js';
import type { ServiceUnderTest } from './docs-page.js';

export interface ServiceStatusSuite<H extends ServiceUnderTest> {
  service: ServiceName;
  /** Starts the service (with whatever must not take the `/status` route). */
  start(): Promise<H>;
  /** Every bucket `limits` lists for the service: `global`, `status` and the service's own. */
  buckets: string[];
  /** A key the service knows, as a client sends it. */
  key(harness: H): string | Promise<string>;
  /** What `data.key` shows of that key. */
  describesKey: Record<string, unknown>;
  /** Turns the service's read-only switch; without it the read-only case is left out. */
  setReadOnly?: (harness: H, on: boolean) => Promise<void>;
  /** The app's own cases, in the same describe, with the same service. */
  more?(harness: () => H): void;
}

/** What the cases read of `GET /status`'s answer. */
interface StatusBody {
  success: boolean;
  code?: number;
  data: { readOnly: boolean; limits: Record<string, unknown> };
}

const getStatus = (url: string, authorization?: string) =>
  request<StatusBody>(`${url}/status`, authorization === undefined ? {} : { headers: { authorization } });

/** `GET /status` of a service (docs/api.md §1): the cases every service answers alike. */
export function describeServiceStatus<H extends ServiceUnderTest>(suite: ServiceStatusSuite<H>): void {
  describe(`GET /status (${suite.service})`, () => {
    let harness: H;
    beforeAll(async () => {
      harness = await suite.start();
    });
    afterAll(async () => harness?.close());

    it(`describes the key and the ${suite.service} buckets, never the key`, async () => {
      const key = await suite.key(harness);
      const res = await getStatus(harness.url, key);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        success: true,
        data: { service: suite.service, readOnly: false, key: suite.describesKey },
      });
      expect(Object.keys(res.body.data.limits).sort()).toEqual([...suite.buckets].sort());
      expect(res.text).not.toContain(key);
    });

    it('needs no key: an anonymous request gets key null and the limits of its address', async () => {
      const res = await getStatus(harness.url);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, data: { service: suite.service, readOnly: false, key: null } });
      expect(Object.keys(res.body.data.limits).sort()).toEqual([...suite.buckets].sort());
    });

    it('refuses an invalid key with 1010', async () => {
      const res = await getStatus(harness.url, 'pl_not_a_key');
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(1010);
    });

    const setReadOnly = suite.setReadOnly;
    if (setReadOnly) {
      it('reports read-only mode', async () => {
        await setReadOnly(harness, true);
        try {
          expect((await getStatus(harness.url)).body.data.readOnly).toBe(true);
        } finally {
          await setReadOnly(harness, false);
        }
      });
    }

    suite.more?.(() => harness);
  });
}
