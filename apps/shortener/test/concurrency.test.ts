import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, jsonInit, request, startHarness, uniqueUrl, type Harness } from './support.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness('sh-race');
});
afterAll(async () => {
  await h.close();
});

const N = 16;

describe('concurrent creates (uniqueness is the database’s)', () => {
  it('one custom code: exactly one 201, the rest 409 1072', async () => {
    const results = await Promise.all(
      Array.from({ length: N }, (_, i) => create(h, { url: uniqueUrl(`race-code-${i}`), code: 'Contested' })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(N - 1);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.code).toBe(1072);
    const rows: unknown[] = await h.dataSource.query("SELECT pos FROM short_urls WHERE code = 'Contested'");
    expect(rows).toHaveLength(1);
  });

  it('one url, non-editable: exactly one 201, the rest 200 with that same entry', async () => {
    const url = uniqueUrl('race-url');
    const results = await Promise.all(Array.from({ length: N }, () => create(h, { url }, { editable: false })));
    const winners = results.filter((r) => r.status === 201);
    expect(winners).toHaveLength(1);
    const winner = winners[0]!.body.data;
    expect(winner.managementCode).toBeNull();
    for (const r of results.filter((x) => x !== winners[0])) {
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual(winner);
    }
    const rows: unknown[] = await h.dataSource.query('SELECT pos FROM short_urls WHERE url = ?', [url]);
    expect(rows).toHaveLength(1);
  });

  it('one url, editable: every create makes its own entry with its own management code', async () => {
    const url = uniqueUrl('race-editable');
    const results = await Promise.all(Array.from({ length: N }, () => create(h, { url })));
    expect(results.map((r) => r.status)).toEqual(Array.from({ length: N }, () => 201));
    expect(new Set(results.map((r) => r.body.data.code)).size).toBe(N);
    expect(new Set(results.map((r) => r.body.data.managementCode)).size).toBe(N);
    const rows: unknown[] = await h.dataSource.query('SELECT pos FROM short_urls WHERE url = ?', [url]);
    expect(rows).toHaveLength(N);
  });

  it('one url with different custom codes, non-editable: one entry, everyone gets it', async () => {
    const url = uniqueUrl('race-both');
    const results = await Promise.all(
      Array.from({ length: N }, (_, i) => create(h, { url, code: `both-${i}` }, { editable: false })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    const codes = new Set(results.map((r) => r.body.data.code));
    expect(codes.size).toBe(1);
  });
});

describe('concurrent edits', () => {
  it('several editable entries moved to one url: every edit succeeds (editable entries are never shared)', async () => {
    const target = uniqueUrl('race-patch');
    const entries = await Promise.all(
      Array.from({ length: 8 }, () => create(h, { url: uniqueUrl('race-patch-from') }, { editable: true })),
    );
    const results = await Promise.all(
      entries.map(({ body }) =>
        request(
          `${h.url}/${body.data.code}`,
          jsonInit('PATCH', { managementCode: body.data.managementCode, url: target }, { authorization: h.key }),
        ),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array.from({ length: 8 }, () => 200));
    const rows: unknown[] = await h.dataSource.query('SELECT pos FROM short_urls WHERE url = ?', [target]);
    expect(rows).toHaveLength(8);
  });
});
