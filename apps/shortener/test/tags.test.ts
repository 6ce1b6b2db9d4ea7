import { createTestKey } from '@pawlink/auth/testing';
import type { ShortUrlWithVisits, TagList } from '@pawlink/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, jsonInit, request, startHarness, uniqueUrl, type Harness } from './support.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness('sh-tags');
});
afterAll(async () => {
  await h.close();
});

interface Answer<T> {
  success: boolean;
  code?: number;
  error?: string;
  data: T;
}

const freshKey = (): Promise<string> => createTestKey(h.apiKeys, ['shortener']);

const patch = (code: string, body: Record<string, unknown>) =>
  request<Answer<ShortUrlWithVisits>>(`${h.url}/${code}`, jsonInit('PATCH', body, { authorization: h.key }));

const links = (key: string, query: string) =>
  request<Answer<{ links: ShortUrlWithVisits[]; next: string | null }>>(`${h.url}/links${query}`, {
    headers: { authorization: key },
  });

const tagsOf = (key: string) => request<Answer<TagList>>(`${h.url}/tags`, { headers: { authorization: key } });

const json = (code: string, key: string) =>
  request<Answer<ShortUrlWithVisits>>(`${h.url}/${code}.json`, { headers: { authorization: key } });

describe('tags on create', () => {
  it('stores them lower-case, each once, sorted, and answers them', async () => {
    const res = await create(h, { url: uniqueUrl(), tags: ['Work', 'cats', 'work', 'a-1'] });
    expect(res.status).toBe(201);
    expect(res.body.data.tags).toEqual(['a-1', 'cats', 'work']);
  });

  it('answers an empty list when none is given', async () => {
    const res = await create(h, { url: uniqueUrl() });
    expect(res.body.data.tags).toEqual([]);
  });

  it.each([
    ['not a list', 'work'],
    ['a tag that is not a string', [1]],
    ['an empty tag', ['']],
    ['a tag of 33 characters', ['a'.repeat(33)]],
    ['a tag with another character', ['no_underscore']],
    ['a tag with a space', ['two words']],
    ['a tag with a non-ASCII letter', ['café']],
    ['11 distinct tags', Array.from({ length: 11 }, (_, i) => `t${i}`)],
    ['null', null],
  ])('refuses %s with 422 1087 and creates nothing', async (_, tags) => {
    const url = uniqueUrl('refused');
    const res = await create(h, { url, tags });
    expect([res.status, res.body.code]).toEqual([422, 1087]);
    const key = await freshKey();
    expect((await links(key, '')).body.data.links).toEqual([]);
  });

  it('takes 32 characters and 10 tags (11 given, one twice)', async () => {
    const ten = Array.from({ length: 10 }, (_, i) => `t${i}`);
    const res = await create(h, { url: uniqueUrl(), tags: [...ten, 'T0', 'b'.repeat(32)].slice(0, 11) });
    expect(res.status).toBe(201);
    expect(res.body.data.tags).toHaveLength(10);
    const long = await create(h, { url: uniqueUrl(), tags: ['b'.repeat(32)] });
    expect(long.body.data.tags).toEqual(['b'.repeat(32)]);
  });

  it('a non-editable create with tags makes its own entry (never the shared one)', async () => {
    const url = uniqueUrl('shared');
    const plain = await create(h, { url }, { editable: false });
    const tagged = await create(h, { url, tags: ['mine'] }, { editable: false });
    expect(tagged.status).toBe(201);
    expect(tagged.body.data.code).not.toBe(plain.body.data.code);
    const again = await create(h, { url }, { editable: false });
    expect([again.status, again.body.data.code, again.body.data.tags]).toEqual([200, plain.body.data.code, []]);
  });

  it('checks each bulk item’s tags as POST /create does', async () => {
    const res = await request<Answer<Array<{ success: boolean; code?: number; data?: { tags?: string[] } }>>>(
      `${h.url}/create/bulk`,
      jsonInit(
        'POST',
        {
          links: [
            { url: uniqueUrl(), tags: ['Ok'] },
            { url: uniqueUrl(), tags: ['bad tag'] },
          ],
        },
        {
          authorization: h.key,
        },
      ),
    );
    expect(res.status).toBe(200);
    expect(res.body.data[0]!.data!.tags).toEqual(['ok']);
    expect([res.body.data[1]!.success, res.body.data[1]!.code]).toEqual([false, 1087]);
  });

  it('reserves the codes tags and console', async () => {
    for (const code of ['tags', 'Console']) {
      const res = await create(h, { url: uniqueUrl(), code });
      expect([res.status, res.body.code]).toEqual([409, 1072]);
    }
  });
});

describe('tags on PATCH', () => {
  it('replaces the list, [] removes it, the same list is no change (1080), a bad one 1087', async () => {
    const made = await create(h, { url: uniqueUrl(), tags: ['one'] });
    const { code, managementCode } = made.body.data;
    const changed = await patch(code, { managementCode, tags: ['Two', 'three'] });
    expect([changed.status, changed.body.data.tags]).toEqual([200, ['three', 'two']]);
    expect(changed.body.data.modifiedAt).not.toBeNull();
    const same = await patch(code, { managementCode, tags: ['two', 'THREE'] });
    expect([same.status, same.body.code]).toEqual([400, 1080]);
    const bad = await patch(code, { managementCode, tags: ['ok', 'not ok'] });
    expect([bad.status, bad.body.code]).toEqual([422, 1087]);
    const credit = await patch(code, { managementCode, credit: 'Fox' });
    expect(credit.body.data.tags).toEqual(['three', 'two']);
    const cleared = await patch(code, { managementCode, tags: [] });
    expect([cleared.status, cleared.body.data.tags]).toEqual([200, []]);
    expect((await json(code, h.key)).body.data.tags).toEqual([]);
  });
});

describe('GET /:code.json', () => {
  it('shows the tags to the owner’s key only', async () => {
    const owner = await freshKey();
    const made = await create(h, { url: uniqueUrl(), tags: ['secret'] }, { headers: { authorization: owner } });
    const mine = await json(made.body.data.code, owner);
    expect([mine.status, mine.body.data.tags]).toEqual([200, ['secret']]);
    const theirs = await json(made.body.data.code, h.key);
    expect(theirs.status).toBe(200);
    expect(theirs.body.data).not.toHaveProperty('tags');
  });
});

describe('GET /links?tag', () => {
  it('lists the entries carrying every tag given, in any case, beside q', async () => {
    const key = await freshKey();
    const as = { headers: { authorization: key } };
    const a = (await create(h, { url: uniqueUrl('alpha'), tags: ['a'] }, as)).body.data.code;
    const ab = (await create(h, { url: uniqueUrl('both'), tags: ['a', 'b'] }, as)).body.data.code;
    const b = (await create(h, { url: uniqueUrl('beta'), tags: ['b'] }, as)).body.data.code;
    await create(h, { url: uniqueUrl('none') }, as);
    const codes = async (query: string) => {
      const res = await links(key, query);
      expect(res.status).toBe(200);
      return res.body.data.links.map((link) => link.code);
    };
    expect(await codes('?tag=a')).toEqual([ab, a]);
    expect(await codes('?tag=B')).toEqual([b, ab]);
    expect(await codes('?tag=a&tag=b')).toEqual([ab]);
    expect(await codes('?tag=a&q=alpha')).toEqual([a]);
    expect(await codes('?tag=c')).toEqual([]);
    const page = await links(key, '?tag=a&limit=1');
    expect(page.body.data.links.map((link) => link.code)).toEqual([ab]);
    expect(await codes(`?tag=a&limit=1&cursor=${page.body.data.next}`)).toEqual([a]);
    expect((await links(key, '?tag=a')).body.data.links[0]!.tags).toEqual(['a', 'b']);
  });

  it.each([
    ['empty', '?tag='],
    ['another character', '?tag=a_b'],
    ['too long', `?tag=${'a'.repeat(33)}`],
    ['more than 10', `?${Array.from({ length: 11 }, (_, i) => `tag=t${i}`).join('&')}`],
    ['bracketed', '?tag[]=a'],
  ])('refuses a tag %s with 400 1057', async (_, query) => {
    const res = await links(h.key, query);
    expect([res.status, res.body.code]).toEqual([400, 1057]);
  });

  it('still refuses another repeated parameter (1057)', async () => {
    const res = await links(h.key, '?q=a&q=b');
    expect([res.status, res.body.code]).toEqual([400, 1057]);
  });
});

describe('GET /tags', () => {
  it('needs a key with the shortener flag', async () => {
    const none = await request<Answer<unknown>>(`${h.url}/tags`);
    expect([none.status, none.body.code]).toEqual([401, 1013]);
  });

  it('counts the key’s tags by name, nobody else’s; a delete takes its tags away', async () => {
    const key = await freshKey();
    const as = { headers: { authorization: key } };
    expect((await tagsOf(key)).body.data).toEqual({ tags: [] });
    await create(h, { url: uniqueUrl(), tags: ['x', 'y'] }, as);
    const gone = await create(h, { url: uniqueUrl(), tags: ['y'] }, as);
    await create(h, { url: uniqueUrl(), tags: ['x', 'z'] }, { headers: { authorization: h.key } });
    const res = await tagsOf(key);
    expect(res.status).toBe(200);
    expect(res.body.data.tags).toEqual([
      { tag: 'x', links: 1 },
      { tag: 'y', links: 2 },
    ]);
    const { code, managementCode } = gone.body.data;
    const deleted = await request(`${h.url}/${code}`, jsonInit('DELETE', { managementCode }, { authorization: key }));
    expect(deleted.status).toBe(204);
    expect((await tagsOf(key)).body.data.tags).toEqual([
      { tag: 'x', links: 1 },
      { tag: 'y', links: 1 },
    ]);
  });

  it('answers other methods 405', async () => {
    const res = await request(`${h.url}/tags`, { method: 'POST', headers: { authorization: h.key } });
    expect(res.status).toBe(405);
  });
});
