import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { request } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeholderImage, startHarness, type Harness } from './support.js';

const md5 = (bytes: Buffer): string => createHash('md5').update(bytes).digest('hex');

/** bin/admin images import with hostile credits: each is refused per file with the reason, or stored normalised. */
describe('bin/admin images import: artists and sources', () => {
  let h: Harness;
  let inbox: string;
  let n = 0;
  let seed = 100;
  const rows = async (): Promise<number> =>
    Number((await h.images.query<Array<{ n: string }>>('SELECT COUNT(*) AS n FROM images'))[0]!.n);
  const importInto = (...args: string[]) => h.cli(['images', 'import', '--category', 'furry.hug', ...args]);
  const stored = async (id: string) =>
    (await request(`${h.url}/images/${id}.json`)).body.data as {
      artists: string[];
      sources: string[];
      reportURL: string | null;
      shortURL: string | null;
    };

  /** A fresh folder holding `bad.<ext>` and `good.<ext>`, and a sidecar giving `bad` the entry. */
  async function caseWith(
    entry: unknown,
  ): Promise<{ dir: string; sidecar: string; bad: string; good: string; goodId: string; badId: string }> {
    const dir = path.join(inbox, `case-${n++}`);
    await mkdir(dir, { recursive: true });
    const bad = await placeholderImage(seed++);
    const good = await placeholderImage(seed++);
    await writeFile(path.join(dir, `bad.${bad.ext}`), bad.bytes);
    await writeFile(path.join(dir, `good.${good.ext}`), good.bytes);
    const sidecar = path.join(inbox, `sidecar-${n}.json`);
    await writeFile(sidecar, JSON.stringify({ [`bad.${bad.ext}`]: entry }));
    return {
      dir,
      sidecar,
      bad: path.join(dir, `bad.${bad.ext}`),
      good: path.join(dir, `good.${good.ext}`),
      goodId: md5(good.bytes),
      badId: md5(bad.bytes),
    };
  }

  beforeAll(async () => {
    h = await startHarness('img-cli-credits');
    inbox = path.join(h.ctx.mediaDir, 'inbox');
    await mkdir(inbox, { recursive: true });
    await h.addCategory('furry.hug');
  });
  afterAll(async () => h.close());

  it.each([
    [
      'an artist with a right-to-left override',
      { artists: ['Fox\u202Egpj.exe'] },
      'artist "Fox\\u{202E}gpj.exe" is not plain text',
    ],
    [
      'an artist with a line separator',
      { artists: ['two\u2028lines'] },
      'artist "two\\u{2028}lines" is not plain text',
    ],
    ['an artist with CR/LF', { artists: ['a\r\nX-Evil: 1'] }, 'artist "a\\u{D}\\u{A}X-Evil: 1" is not plain text'],
    ['an artist with a terminal escape', { artists: ['bad\u001b[31m'] }, 'artist "bad\\u{1B}[31m" is not plain text'],
    ['an artist with a lone surrogate', { artists: ['\ud800'] }, 'artist "\\u{D800}" is not plain text'],
    ['an empty artist', { artists: [' '] }, 'an artist must not be empty'],
    ['an artist of 51 characters', { artists: ['x'.repeat(51)] }, 'is longer than 50 characters'],
    ['21 artists', { artists: Array.from({ length: 21 }, (_, i) => `Artist ${i}`) }, '21 artists (at most 20)'],
    [
      '11 sources',
      { sources: Array.from({ length: 11 }, (_, i) => `https://example.com/${i}`) },
      '11 sources (at most 10)',
    ],
    [
      'a source that is not a URL',
      { sources: ['javascript:alert(1)'] },
      'source "javascript:alert(1)" is not an absolute http(s) URL',
    ],
    ['a relative source', { sources: ['/posts/1'] }, 'source "/posts/1" is not an absolute http(s) URL'],
    ['a source with credentials', { sources: ['https://e621.net@evil.example/x'] }, 'carries credentials (user@host)'],
    [
      'a source with a tab',
      { sources: ['https://exam\tple.com/'] },
      'contains control, line-separator or bidirectional characters',
    ],
    [
      'a source with a bidi override',
      { sources: ['https://example.com/\u202Egpj.exe'] },
      'contains control, line-separator or bidirectional characters',
    ],
    ['a source with a space in its host', { sources: ['https://exa mple.com/'] }, 'is not an absolute http(s) URL'],
    [
      'a source too long for the column',
      { sources: [`https://example.com/${'a'.repeat(3000)}`] },
      'is longer than 2048 characters',
    ],
    ['a reportURL that is not a URL', { reportURL: 'nope' }, 'reportURL "nope" is not an absolute http(s) URL'],
    [
      'a shortURL that is not a URL',
      { shortURL: 'ftp://example.com/x' },
      'shortURL "ftp://example.com/x" is not an absolute http(s) URL',
    ],
  ])(
    'refuses the file whose sidecar entry has %s, with the reason, and imports the others (exit 1)',
    async (_label, entry, reason) => {
      const c = await caseWith(entry);
      const before = await rows();
      const result = await importInto('--artist', 'Flag Artist', '--meta', c.sidecar, c.dir);
      expect(result.code).toBe(1);
      const line = result.stdout.split('\n').find((l) => l.startsWith(`failed ${c.bad}: `));
      expect(line).toContain(reason);
      // The report never prints the characters it refuses.
      expect(line).not.toMatch(/[\p{Cc}\u202e\u2028\ud800]/u);
      expect(result.stdout).toContain(`imported ${c.good} → ${c.goodId}`);
      expect(result.stdout).toContain('Imported 1, skipped 0 duplicate(s), 1 failed');
      expect(await rows()).toBe(before + 1);
      expect((await request(`${h.url}/images/${c.badId}.json`)).status).toBe(404);
    },
  );

  it('stores sources, report and short URLs normalised: punycode hosts, no whitespace, quotes encoded, repeats once', async () => {
    const c = await caseWith({
      artists: ['  Zoë  ', 'Zoë', '👨‍👩‍👧 family', 'שלום'],
      sources: [
        ' https://ЕXAMPLE.com/a b"c\'d?q="x y"#"frag" ',
        "HTTPS://example.com:443/a%20b%22c'd?q=%22x%20y%22#%22frag%22",
        'http://bücher.example/ünï',
      ],
      reportURL: 'https://report.example/a b',
      shortURL: 'https://Short.Example/Xy',
    });
    const result = await importInto('--meta', c.sidecar, c.dir);
    expect(result.code).toBe(0);
    expect(await stored(c.badId)).toMatchObject({
      artists: ['Zoë', '👨‍👩‍👧 family', 'שלום'],
      sources: [
        "https://xn--xample-2of.com/a%20b%22c'd?q=%22x%20y%22#%22frag%22",
        "https://example.com/a%20b%22c'd?q=%22x%20y%22#%22frag%22",
        'http://xn--bcher-kva.example/%C3%BCn%C3%AF',
      ],
      reportURL: 'https://report.example/a%20b',
      shortURL: 'https://short.example/Xy',
    });
  });

  it('applies the same rules to the flags: a bad --artist or --source, or too many, is a usage error (exit 2)', async () => {
    const image = await placeholderImage(seed++);
    const file = path.join(inbox, `flags.${image.ext}`);
    await writeFile(file, image.bytes);
    const before = await rows();
    for (const args of [
      ['--artist', 'Fox\u202Egpj.exe'],
      ['--artist', 'two\u2028lines'],
      ['--artist', 'x'.repeat(51)],
      ['--source', 'https://user:pw@example.com/'],
      ['--source', 'javascript:alert(1)'],
      Array.from({ length: 21 }, (_, i) => ['--artist', `Artist ${i}`]).flat(),
      Array.from({ length: 11 }, (_, i) => ['--source', `https://example.com/${i}`]).flat(),
    ]) {
      const result = await importInto(...args, file);
      expect([args[1], result.code]).toEqual([args[1], 2]);
    }
    expect(await rows()).toBe(before);
    const ok = await importInto('--artist', ' Ann ', '--source', 'https://ЕXAMPLE.com/a b', file);
    expect(ok.code).toBe(0);
    expect(await stored(md5(image.bytes))).toMatchObject({
      artists: ['Ann'],
      sources: ['https://xn--xample-2of.com/a%20b'],
    });
  });
});
