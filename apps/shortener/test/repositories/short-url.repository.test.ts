import { createDataSource, loadBaseConfig, migrateDatabase } from '@pawlink/service-kit';
import { createTestContext, type TestContext } from '@pawlink/test-kit';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shortenerDatabase } from '../../src/db/shortener.database.js';
import { ShortUrlRepository } from '../../src/repositories/short-url.repository.js';

let ctx: TestContext;
let dataSource: DataSource;
let repository: ShortUrlRepository;

beforeAll(async () => {
  ctx = await createTestContext('sh-repo');
  const { database } = loadBaseConfig(ctx.env);
  await migrateDatabase(database, shortenerDatabase);
  dataSource = createDataSource(database, shortenerDatabase);
  await dataSource.initialize();
  repository = new ShortUrlRepository(dataSource);
});
afterAll(async () => {
  await dataSource.destroy();
  await ctx.cleanup();
});

const entry = (code: string, url: string, managementCodeHash: string | null = null) => ({
  code,
  url,
  credit: 'Unknown',
  managementCodeHash,
  createdAt: new Date(),
  expiresAt: null,
  maxVisits: null,
});

describe('ShortUrlRepository', () => {
  it('reports which unique index refused an insert', async () => {
    expect((await repository.insert(entry('Case', 'https://example.com/1'))).ok).toBe(true);
    // Codes are case-sensitive: `case` is another code.
    expect((await repository.insert(entry('case', 'https://example.com/2'))).ok).toBe(true);
    expect(await repository.insert(entry('Case', 'https://example.com/3'))).toEqual({ ok: false, conflict: 'code' });
    expect(await repository.insert(entry('other', 'https://example.com/1'))).toEqual({ ok: false, conflict: 'url' });
  });

  it('shares only entries without a management code: editable ones may repeat a url', async () => {
    const url = 'https://example.com/shared';
    const fixed = await repository.insert(entry('fixed-1', url));
    const mine = await repository.insert(entry('mine-1', url, 'a'.repeat(64)));
    const yours = await repository.insert(entry('yours-1', url, 'b'.repeat(64)));
    expect([fixed.ok, mine.ok, yours.ok]).toEqual([true, true, true]);
    expect((await repository.findSharedByUrl(url))?.code).toBe('fixed-1');
    expect(await repository.findSharedByUrl('https://example.com/never')).toBeNull();
  });

  it('updates and deletes by pos, answering false once the entry is gone', async () => {
    const inserted = await repository.insert(entry('edit-me', 'https://example.com/edit', 'c'.repeat(64)));
    if (!inserted.ok) throw new Error('insert failed');
    const at = new Date('2026-01-02T03:04:05.678Z');
    expect(
      await repository.update(inserted.value.pos, {
        url: 'https://example.com/edited',
        modifiedAt: at,
        urlChangedAt: at,
      }),
    ).toBe(true);
    expect(await repository.findByCode('edit-me')).toMatchObject({
      url: 'https://example.com/edited',
      modifiedAt: at,
      urlChangedAt: at,
      sharedUrlHash: null,
    });
    expect(await repository.delete(inserted.value.pos)).toBe(true);
    expect(await repository.delete(inserted.value.pos)).toBe(false);
    expect(await repository.update(inserted.value.pos, { credit: 'x', modifiedAt: at })).toBe(false);
  });

  describe('a create whose connection is cut (a writer moved by HAProxy)', () => {
    const connectionLost = () =>
      Object.assign(new Error('Connection lost: The server closed the connection.'), {
        code: 'PROTOCOL_CONNECTION_LOST',
        fatal: true,
      });

    /** The repository on a data source whose first INSERT into short_urls runs `first` instead. */
    function cutFirstInsert(first: (run: () => Promise<unknown>) => Promise<unknown>): ShortUrlRepository {
      const query = dataSource.query.bind(dataSource);
      let cut = false;
      const cutting = Object.create(dataSource) as DataSource;
      cutting.query = ((sql: string, parameters?: unknown[]) => {
        if (cut || !sql.startsWith('INSERT INTO short_urls')) return query(sql, parameters);
        cut = true;
        return first(() => query(sql, parameters));
      }) as DataSource['query'];
      cutting.getRepository = ((target: never) => {
        const repo = dataSource.getRepository(target);
        return Object.assign(Object.create(repo) as object, {
          query: (sql: string, parameters?: unknown[]) => cutting.query(sql, parameters),
        });
      }) as DataSource['getRepository'];
      return new ShortUrlRepository(cutting);
    }

    it('recognises its own commit when the answer was lost after it', async () => {
      const repository = cutFirstInsert(async (run) => {
        await run();
        throw connectionLost();
      });
      const created = entry('LostAnswer', 'https://example.com/lost-answer', 'a'.repeat(64));
      const outcome = await repository.insert(created);
      expect(outcome.ok).toBe(true);
      const stored = await dataSource.query('SELECT pos FROM short_urls WHERE code = ?', ['LostAnswer']);
      expect(stored).toHaveLength(1);
      expect(outcome.ok && outcome.value.pos).toBe(Number(stored[0].pos));
    });

    it('inserts on the retry when the cut try had not committed', async () => {
      const repository = cutFirstInsert(() => Promise.reject(connectionLost()));
      const outcome = await repository.insert(entry('CutBefore', 'https://example.com/cut-before'));
      expect(outcome.ok).toBe(true);
      expect(await dataSource.query('SELECT code FROM short_urls WHERE code = ?', ['CutBefore'])).toHaveLength(1);
    });

    it("still answers a conflict when the code is another create's", async () => {
      expect((await repository.insert(entry('Taken', 'https://example.com/taken-1', 'b'.repeat(64)))).ok).toBe(true);
      const cutting = cutFirstInsert(() => Promise.reject(connectionLost()));
      expect(await cutting.insert(entry('Taken', 'https://example.com/taken-2', 'c'.repeat(64)))).toEqual({
        ok: false,
        conflict: 'code',
      });
    });
  });

  describe('ids that interleave, as on a Galera cluster (auto_increment_increment 3, offset 2)', () => {
    let spaced: DataSource;
    let spacedRepository: ShortUrlRepository;

    beforeAll(async () => {
      spaced = createDataSource(loadBaseConfig(ctx.env).database, { ...shortenerDatabase, poolSize: 1 });
      await spaced.initialize();
      // What Galera sets on each node (wsrep_auto_increment_control): this node's share of the ids.
      await spaced.query('SET SESSION auto_increment_increment = 3, auto_increment_offset = 2');
      spacedRepository = new ShortUrlRepository(spaced);
    });
    afterAll(async () => {
      await spaced?.destroy();
    });

    it("pages an owner's entries by keyset, each once and newest first, whatever the gaps between their pos", async () => {
      const owner = 4242;
      const sameMoment = new Date('2026-11-28T01:00:00.000Z');
      const positions: number[] = [];
      for (let i = 0; i < 7; i++) {
        // Some share a created_at: pos alone orders them.
        const createdAt = i < 4 ? sameMoment : new Date(sameMoment.getTime() + i * 1000);
        const outcome = await spacedRepository.insert({
          ...entry(`gap-${i}`, `https://example.com/gap/${i}`, String(i).repeat(64)),
          createdAt,
          ownerKeyId: owner,
        });
        if (!outcome.ok) throw new Error('insert failed');
        positions.push(outcome.value.pos);
      }
      // The ids this session was given step by 3 (not dense), and each insert got back its own.
      for (let i = 1; i < positions.length; i++) expect(positions[i]! - positions[i - 1]!).toBe(3);
      const stored = await spaced.query<Array<{ pos: number; code: string }>>(
        'SELECT pos, code FROM short_urls WHERE owner_key_id = ? ORDER BY pos',
        [owner],
      );
      expect(stored.map((r) => Number(r.pos))).toEqual(positions);

      const seen: string[] = [];
      let after: { createdAt: Date; pos: number } | undefined;
      for (;;) {
        const page = await spacedRepository.listByOwner({ ownerKeyId: owner, limit: 3, ...(after ? { after } : {}) });
        if (page.length === 0) break;
        seen.push(...page.map((r) => r.code));
        const last = page[page.length - 1]!;
        after = { createdAt: last.createdAt, pos: last.pos };
      }
      expect(seen).toEqual(['gap-6', 'gap-5', 'gap-4', 'gap-3', 'gap-2', 'gap-1', 'gap-0']);

      // Edits and deletes go by pos, gaps or not.
      expect(await spacedRepository.update(positions[2]!, { credit: 'Edited', modifiedAt: new Date() })).toBe(true);
      expect((await spacedRepository.findByCode('gap-2'))?.credit).toBe('Edited');
      expect(await spacedRepository.delete(positions[3]!)).toBe(true);
      expect(await spacedRepository.findByCode('gap-3')).toBeNull();
    });
  });
});
