import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, jsonInit, request, startHarness, uniqueUrl, type Harness } from './support.js';

/**
 * docs/api.md §2: `createdAt` and `modifiedAt` keep their milliseconds on every write. The clock puts
 * 789 ms on every instant, so a write that loses them cannot pass for one that kept them.
 */

const MS = 789;
const clock = (): Date => {
  const now = new Date();
  now.setUTCMilliseconds(MS);
  return now;
};

let h: Harness;
beforeAll(async () => {
  h = await startHarness('sh-times', {}, { clock });
});
afterAll(async () => {
  await h.close();
});

interface StoredTimes {
  created_at: string;
  modified_at: string | null;
  url_changed_at: string | null;
}

/** The row's times as MySQL holds them, with every fractional digit the column keeps. */
async function stored(code: string): Promise<StoredTimes> {
  const rows: StoredTimes[] = await h.dataSource.query(
    `SELECT DATE_FORMAT(created_at, '%Y-%m-%dT%H:%i:%s.%f') AS created_at, DATE_FORMAT(modified_at, '%Y-%m-%dT%H:%i:%s.%f') AS modified_at,
            DATE_FORMAT(url_changed_at, '%Y-%m-%dT%H:%i:%s.%f') AS url_changed_at
       FROM short_urls WHERE code = ?`,
    [code],
  );
  return rows[0]!;
}

/** `2026-11-25T16:08:36.789Z` as MySQL's `%f` shows it: `2026-11-25T16:08:36.789000`. */
const asStored = (iso: string): string => `${iso.slice(0, -1)}000`;

const json = async (code: string) =>
  (await request(`${h.url}/${code}.json`, { headers: { authorization: h.key } })).body.data;

describe('createdAt and modifiedAt', () => {
  it('are DATETIME(3) in every table of every schema', async () => {
    const columns: Array<{ TABLE_SCHEMA: string; TABLE_NAME: string; COLUMN_NAME: string; COLUMN_TYPE: string }> =
      await h.dataSource.query(
        `SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, COLUMN_TYPE FROM information_schema.COLUMNS
        WHERE TABLE_SCHEMA IN (?, ?) AND DATA_TYPE IN ('datetime', 'timestamp')`,
        [`${h.ctx.dbPrefix}shortener`, `${h.ctx.dbPrefix}auth`],
      );
    expect(columns.map((c) => c.COLUMN_NAME)).toEqual(
      expect.arrayContaining(['created_at', 'modified_at', 'url_changed_at', 'expires_at', 'max_visits_reached_at']),
    );
    for (const column of columns)
      expect(column.COLUMN_TYPE, `${column.TABLE_NAME}.${column.COLUMN_NAME}`).toBe('datetime(3)');
  });

  it('keep milliseconds on create (JSON and form), and a credit-only edit keeps them in modifiedAt', async () => {
    const made = await create(h, { url: uniqueUrl() });
    const form = await request(`${h.url}/create`, {
      method: 'POST',
      headers: { authorization: h.key, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ url: uniqueUrl() }).toString(),
    });
    for (const data of [made.body.data, form.body.data as typeof made.body.data]) {
      expect(new Date(data.createdAt).getUTCMilliseconds()).toBe(MS);
      expect((await stored(data.code)).created_at).toBe(asStored(data.createdAt));
      expect((await json(data.code)).createdAt).toBe(data.createdAt);
    }

    const { code, managementCode } = made.body.data;
    const credited = await request(
      `${h.url}/${code}`,
      jsonInit('PATCH', { managementCode, credit: 'Only the credit' }, { authorization: h.key }),
    );
    expect(credited.status).toBe(200);
    const modifiedAt: string = credited.body.data.modifiedAt;
    expect(new Date(modifiedAt).getUTCMilliseconds()).toBe(MS);
    expect(await stored(code)).toEqual({
      created_at: asStored(made.body.data.createdAt),
      modified_at: asStored(modifiedAt),
      url_changed_at: null,
    });
    expect(await json(code)).toMatchObject({ createdAt: made.body.data.createdAt, modifiedAt });
  });

  it('keep milliseconds through every other kind of edit: url, expiry, visit limit, form bodies', async () => {
    const made = await create(h, { url: uniqueUrl() });
    const { code, createdAt } = made.body.data;
    const managementCode = made.body.data.managementCode!;
    const edits: Array<[string, RequestInit]> = [
      ['url', jsonInit('PATCH', { managementCode, url: uniqueUrl('moved') }, { authorization: h.key })],
      [
        'expiresAt',
        jsonInit('PATCH', { managementCode, expiresAt: '2099-01-01T00:00:00.123Z' }, { authorization: h.key }),
      ],
      ['maxVisits', jsonInit('PATCH', { managementCode, maxVisits: 10 }, { authorization: h.key })],
      [
        'form credit',
        {
          method: 'PATCH',
          headers: { authorization: h.key, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ managementCode, credit: 'Form' }).toString(),
        },
      ],
    ];
    for (const [name, init] of edits) {
      const res = await request(`${h.url}/${code}`, init);
      expect(res.status, name).toBe(200);
      const modifiedAt: string = res.body.data.modifiedAt;
      expect(new Date(modifiedAt).getUTCMilliseconds(), name).toBe(MS);
      const times = await stored(code);
      expect(times.created_at, name).toBe(asStored(createdAt));
      expect(times.modified_at, name).toBe(asStored(modifiedAt));
      if (name === 'url') expect(times.url_changed_at, name).toBe(asStored(modifiedAt));
      expect((await json(code)).modifiedAt, name).toBe(modifiedAt);
    }
    expect((await json(code)).expiresAt).toBe('2099-01-01T00:00:00.123Z');
  });
});
