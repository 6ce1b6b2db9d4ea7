import { createTestKey } from '@pawlink/auth/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkImportRepository, type ImportedEntry } from '../src/repositories/link-import.repository.js';
import { VisitRepository } from '../src/repositories/visit.repository.js';
import { create, request, startHarness, uniqueUrl, type Harness } from './support.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness('sh-export');
});
afterAll(async () => {
  await h.close();
});

const freshKey = (): Promise<string> => createTestKey(h.apiKeys, ['shortener']);

/** GET /links/export with `key`: status, headers and the body as text. */
async function exportWith(
  key: string,
  query = '',
): Promise<{ status: number; type: string | null; disposition: string | null; text: string }> {
  const res = await fetch(`${h.url}/links/export${query}`, { headers: { authorization: key } });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    disposition: res.headers.get('content-disposition'),
    text: await res.text(),
  };
}

/** The id of the key `key` (the owner its creates record). */
const idOf = async (key: string): Promise<number> => (await h.apiKeys.findByKey(key))!.id;

const entry = (i: number, more: Partial<ImportedEntry> = {}): ImportedEntry => ({
  code: `exp-${Date.now().toString(36)}-${i}`,
  url: `https://example.com/export/${i}`,
  credit: 'Unknown',
  createdAt: new Date(Date.UTC(2020, 0, 1) + i * 1000),
  expiresAt: null,
  maxVisits: null,
  tags: [],
  visits: i,
  origin: `o-${i}-${Math.random()}`,
  ...more,
});

describe('GET /links/export: who may ask, and what it takes', () => {
  it('needs a key (1013), a valid one (1010), with the shortener flag (1022)', async () => {
    const none = await request(`${h.url}/links/export`);
    expect([none.status, none.body.code]).toEqual([401, 1013]);
    const invalid = await request(`${h.url}/links/export`, { headers: { authorization: 'not-a-key' } });
    expect([invalid.status, invalid.body.code]).toEqual([401, 1010]);
    const thumbsOnly = await createTestKey(h.apiKeys, ['thumbs']);
    const noFlag = await request(`${h.url}/links/export`, { headers: { authorization: thumbsOnly } });
    expect([noFlag.status, noFlag.body.code]).toEqual([403, 1022]);
  });

  it('answers 400 1057 to a format or include it does not know, or given twice', async () => {
    const key = await freshKey();
    for (const query of ['?format=xml', '?format=csv&format=ndjson', '?include=hours', '?include=days&include=days']) {
      const res = await request<{ code: number; error: string }>(`${h.url}/links/export${query}`, {
        headers: { authorization: key },
      });
      expect([query, res.status, res.body.code]).toEqual([query, 400, 1057]);
    }
  });
});

describe('GET /links/export: the download', () => {
  it("streams the key's entries oldest first as the CSV the import reads, and nobody else's", async () => {
    const key = await freshKey();
    const other = await freshKey();
    const first = await create(
      { url: h.url, key },
      { url: 'https://example.com/a?x=1,2', credit: 'Doe, "JD"', tags: ['b-tag', 'a-tag'] },
    );
    expect(first.status).toBe(201);
    const second = await create(
      { url: h.url, key },
      { url: uniqueUrl('second'), expiresAt: '2031-02-03T04:05:06.000Z', maxVisits: 9 },
    );
    expect(second.status).toBe(201);
    expect((await create({ url: h.url, key: other }, { url: uniqueUrl('other') })).status).toBe(201);
    const a = first.body.data;
    const b = second.body.data;

    const csv = await exportWith(key);
    expect([csv.status, csv.type, csv.disposition]).toEqual([
      200,
      'text/csv; charset=utf-8; header=present',
      'attachment; filename="links.csv"',
    ]);
    expect(csv.text).toBe(
      'url,code,credit,createdAt,tags,expiresAt,maxVisits,visits\r\n' +
        `"https://example.com/a?x=1,2",${a.code},"Doe, ""JD""",${a.createdAt},a-tag|b-tag,,,0\r\n` +
        `${b.url},${b.code},Unknown,${b.createdAt},,2031-02-03T04:05:06.000Z,9,0\r\n`,
    );
  });

  it('counts visits before an import and per day, and gives the days with include=days (NDJSON too)', async () => {
    const key = await freshKey();
    const owner = await idOf(key);
    const imported = entry(1, { visits: 40, tags: ['old'] });
    expect(await new LinkImportRepository(h.dataSource).insertBatch(owner, 'csv', [imported], new Date())).toBe(true);
    expect(
      await new VisitRepository(h.dataSource).applyBatch(
        `export-${owner}`,
        [
          { code: imported.code, day: '2026-11-20', field: '', visits: 2 },
          { code: imported.code, day: '2026-11-21', field: '', visits: 3 },
        ],
        new Date(),
      ),
    ).toBe(true);

    const csv = await exportWith(key, '?include=days');
    expect(csv.text).toBe(
      'url,code,credit,createdAt,tags,expiresAt,maxVisits,visits,days\r\n' +
        `${imported.url},${imported.code},Unknown,${imported.createdAt.toISOString()},old,,,45,2026-11-20:2|2026-11-21:3\r\n`,
    );
    const ndjson = await exportWith(key, '?format=ndjson&include=days');
    expect([ndjson.status, ndjson.type, ndjson.disposition]).toEqual([
      200,
      'application/x-ndjson; charset=utf-8',
      'attachment; filename="links.ndjson"',
    ]);
    expect(
      ndjson.text
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual([
      {
        url: imported.url,
        code: imported.code,
        credit: 'Unknown',
        createdAt: imported.createdAt.toISOString(),
        tags: ['old'],
        expiresAt: null,
        maxVisits: null,
        visits: 45,
        days: { '2026-11-20': 2, '2026-11-21': 3 },
      },
    ]);
    // The stats count the imported visits in the total, not in a day.
    const stats = await request<{ data: { visits: number; days: unknown[] } }>(`${h.url}/${imported.code}/stats`, {
      headers: { authorization: h.key },
    });
    expect(stats.body.data.visits).toBe(45);
  });

  it('pages through more entries than a page holds, each once, in order (keyset on the owner index)', async () => {
    const key = await freshKey();
    const owner = await idOf(key);
    const repository = new LinkImportRepository(h.dataSource);
    // 1,201 entries: more than two pages of 500, several of them created in the same millisecond.
    const entries = Array.from({ length: 1201 }, (_, i) =>
      entry(i, { createdAt: new Date(Date.UTC(2021, 0, 1) + Math.floor(i / 3)) }),
    );
    for (let i = 0; i < entries.length; i += 400)
      expect(await repository.insertBatch(owner, 'csv', entries.slice(i, i + 400), new Date())).toBe(true);
    const ndjson = await exportWith(key, '?format=ndjson');
    const codes = ndjson.text
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { code: string }).code);
    expect(codes).toEqual(entries.map((e) => e.code));
  });

  it('answers HEAD with the headers of the download and no body', async () => {
    const key = await freshKey();
    expect((await create({ url: h.url, key }, { url: uniqueUrl('head') })).status).toBe(201);
    const res = await fetch(`${h.url}/links/export?format=ndjson`, { method: 'HEAD', headers: { authorization: key } });
    expect([
      res.status,
      res.headers.get('content-type'),
      res.headers.get('content-disposition'),
      await res.text(),
    ]).toEqual([200, 'application/x-ndjson; charset=utf-8', 'attachment; filename="links.ndjson"', '']);
  });

  it('answers an empty export with the header alone', async () => {
    const csv = await exportWith(await freshKey());
    expect([csv.status, csv.text]).toEqual([200, 'url,code,credit,createdAt,tags,expiresAt,maxVisits,visits\r\n']);
    const ndjson = await exportWith(await freshKey(), '?format=ndjson');
    expect([ndjson.status, ndjson.text]).toEqual([200, '']);
  });
});
