import { createTestKey } from '@pawlink/auth/testing';
import { launchChromium, seriousAccessibilityViolations } from '@pawlink/test-kit/browser';
import jsQRModule from 'jsqr';
import sharp from 'sharp';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonInit, request, startHarness, uniqueUrl, type Harness } from './support.js';

/*
 * The console (docs/console.md) in Chromium against a real shortener: everything it shows is
 * compared with what the API answers the same key.
 */
let h: Harness;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const problems: string[] = [];
let otherKey: string;

interface Listed {
  code: string;
  url: string;
  fullURL: string;
}

async function apiGet<T>(path: string): Promise<T> {
  const res = await request<{ data: T }>(`${h.url}${path}`, { headers: { authorization: h.key } });
  expect(res.status, path).toBe(200);
  return res.body.data;
}

async function newPage(
  options: { viewport?: { width: number; height: number } } = {},
): Promise<[BrowserContext, Page]> {
  const ctx = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 900 } });
  const p = await ctx.newPage();
  p.on('console', (message) => {
    // The failures the tests provoke (401, 404, 409, 422) are logged by Chromium as failed loads.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      problems.push(message.text());
  });
  p.on('pageerror', (error) => problems.push(error.message));
  p.on('request', (req) => {
    if (!req.url().startsWith(h.url) && !req.url().startsWith('data:')) problems.push(`foreign request ${req.url()}`);
  });
  await p.addInitScript({
    content:
      "document.addEventListener('securitypolicyviolation', function (e) { console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI); });",
  });
  return [ctx, p];
}

/** The codes the links table shows, in order. */
const tableCodes = (p: Page): Promise<string[]> => p.locator('table.links tbody th a').allTextContents();

async function signInWithKeyboard(p: Page, key: string): Promise<void> {
  await p.goto(`${h.url}/console/`);
  await p.getByLabel('API key').waitFor();
  await p.getByLabel('API key').focus();
  await p.keyboard.type(key);
  await p.keyboard.press('Enter');
}

beforeAll(async () => {
  // An http base URL, as on a developer machine: the cookie is then not Secure, which Chromium needs on http.
  h = await startHarness('sh-console-browser', { SHORTENER_URL: 'http://links.test' });
  otherKey = await createTestKey(h.apiKeys, ['shortener']);
  browser = await launchChromium();
  [context, page] = await newPage();
}, 120_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await h?.close();
});

describe('the console in Chromium', () => {
  it('refuses a wrong key as the API does, and tells a key without the shortener flag so', async () => {
    await signInWithKeyboard(page, 'wrong-key-' + 'q'.repeat(30));
    const error = page.locator('#api-key-error');
    await error.waitFor({ state: 'visible' });
    const api = await request(`${h.url}/links`, { headers: { authorization: 'wrong-key-' + 'q'.repeat(30) } });
    expect(await error.textContent()).toBe(`${api.body.error} (code ${api.body.code})`);
    expect(await page.getByLabel('API key').getAttribute('aria-invalid')).toBe('true');

    const thumbsOnly = await createTestKey(h.apiKeys, ['thumbs']);
    await page.getByLabel('API key').fill(thumbsOnly);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => error.textContent()).toContain('does not have the shortener flag');
    expect(await error.textContent()).toContain('(code 1022)');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  }, 90_000);

  it('signs in with a key and lists exactly its links, page by page, as GET /links does', async () => {
    const bulk = await request<{ data: Array<{ success: boolean }> }>(
      `${h.url}/create/bulk`,
      jsonInit(
        'POST',
        { links: Array.from({ length: 23 }, (_, i) => ({ url: uniqueUrl(`mine-${i}`) })) },
        { authorization: h.key },
      ),
    );
    expect(bulk.body.data.every((item) => item.success)).toBe(true);
    const theirs = await request(
      `${h.url}/create`,
      jsonInit('POST', { url: uniqueUrl('theirs') }, { authorization: otherKey }),
    );
    expect(theirs.status).toBe(201);

    await signInWithKeyboard(page, h.key);
    await page.locator('table.links caption', { hasText: 'Your links' }).waitFor();
    const first = await apiGet<{ links: Listed[]; next: string }>('/links?limit=20');
    expect(await tableCodes(page)).toEqual(first.links.map((link) => link.code));
    expect(await tableCodes(page)).not.toContain((theirs.body as { data: Listed }).data.code);

    await page.getByRole('button', { name: 'Next' }).click();
    await page.locator('#links-status', { hasText: 'Page 2' }).waitFor();
    const second = await apiGet<{ links: Listed[]; next: string | null }>(`/links?limit=20&cursor=${first.next}`);
    expect(await tableCodes(page)).toEqual(second.links.map((link) => link.code));
    expect(second.next).toBeNull();
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Previous' }).click();
    await page.locator('#links-status', { hasText: 'Page 1' }).waitFor();
    expect(await tableCodes(page)).toEqual(first.links.map((link) => link.code));
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  }, 90_000);

  it('searches with q as the API does', async () => {
    const token = `needle${Date.now().toString(36)}`;
    for (const path of ['a', 'b']) {
      const res = await request(
        `${h.url}/create`,
        jsonInit('POST', { url: uniqueUrl(`${token}/${path}`) }, { authorization: h.key }),
      );
      expect(res.status).toBe(201);
    }
    await page.getByLabel('Search code, target or credit').fill(token);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator('#links-status', { hasText: token }).waitFor();
    const found = await apiGet<{ links: Listed[] }>(`/links?limit=20&q=${token}`);
    expect(found.links).toHaveLength(2);
    expect(await tableCodes(page)).toEqual(found.links.map((link) => link.code));
  }, 90_000);
});

describe('creating links in the console', () => {
  let code: string;

  it('creates one link that redirects, and shows an error next to the field it concerns', async () => {
    const target = uniqueUrl('single');
    code = `c-${Date.now().toString(36)}`;
    await page.getByRole('link', { name: 'Create', exact: true }).click();
    await page.getByLabel('URL', { exact: true }).fill(target);
    await page.getByLabel('Code (optional)').fill(code);
    await page.getByLabel('Credit (optional)').fill('Console test');
    await page.getByLabel('Max visits (optional)').fill('50');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const result = page.locator('#single-result a');
    await result.waitFor();
    expect(await result.textContent()).toBe(`http://links.test/${code}`);
    expect(await page.locator('#single-result .management-code').textContent()).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    const record = await apiGet<{ url: string; credit: string; maxVisits: number }>(`/${code}.json`);
    expect(record).toMatchObject({ url: target, credit: 'Console test', maxVisits: 50 });
    const redirect = await request(`${h.url}/${code}`, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe(target);

    // The same code again: 1072, next to the code field.
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.locator('#code-error').waitFor({ state: 'visible' });
    expect(await page.locator('#code-error').textContent()).toMatch(/\(code 1072\)$/);
    await page.getByLabel('URL', { exact: true }).fill('ftp://');
    await page.getByLabel('Code (optional)').fill('');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.locator('#url-error').waitFor({ state: 'visible' });
    expect(await page.locator('#url-error').textContent()).toMatch(/\(code 1073\)$/);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  }, 90_000);

  it('creates many links, one URL a line, with each line’s result', async () => {
    const urls = [uniqueUrl('bulk-1'), 'http://127.0.0.1/private', uniqueUrl('bulk-3')];
    await page.getByLabel('URLs, one a line').fill(urls.join('\n'));
    await page.getByRole('button', { name: 'Create all' }).click();
    await page.locator('#bulk-status', { hasText: '2 of 3 created.' }).waitFor();
    const items = page.locator('#bulk-results li');
    expect(await items.count()).toBe(3);
    expect(await items.nth(1).textContent()).toMatch(/\(code 1073\)$/);
    for (const i of [0, 2]) {
      const short = (await items.nth(i).locator('a').textContent())!;
      const created = short.replace('http://links.test/', '');
      expect((await apiGet<{ url: string }>(`/${created}.json`)).url).toBe(urls[i]);
    }
  }, 90_000);

  it('creates a tagged, password-protected link and filters the list by tag as GET /links does', async () => {
    const tag = `t${Date.now().toString(36)}`;
    await page.getByLabel('URL', { exact: true }).fill(uniqueUrl('tagged'));
    await page.getByLabel('Code (optional)').fill('');
    await page.getByLabel('Max visits (optional)').fill('');
    await page.getByLabel('Tags (optional)').fill(`${tag}, Promo`);
    await page.getByLabel('Password (optional)').fill('correct horse');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await expect.poll(() => page.locator('#single-result a').count()).toBe(1);
    const made = (await page.locator('#single-result a').textContent())!.replace('http://links.test/', '');
    const record = await apiGet<{ tags: string[]; protected: boolean }>(`/${made}.json`);
    expect(record).toMatchObject({ tags: ['promo', tag], protected: true });
    expect((await request(`${h.url}/${made}`, { redirect: 'manual' })).status).toBe(200);

    await page.getByLabel('Tags (optional)').fill('Not a tag!');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.locator('#tags-error').waitFor({ state: 'visible' });
    expect(await page.locator('#tags-error').textContent()).toMatch(/\(code 1087\)$/);
    await page.getByLabel('Tags (optional)').fill('');
    await page.getByLabel('Password (optional)').fill('');

    await page.goto(`${h.url}/console/#/links?tag=${tag}`);
    await page.locator('#links-status', { hasText: `tagged ${tag}` }).waitFor();
    const tagged = await apiGet<{ links: Listed[] }>(`/links?limit=20&tag=${tag}`);
    expect(tagged.links.map((link) => link.code)).toEqual([made]);
    expect(await tableCodes(page)).toEqual([made]);
    await page.getByRole('link', { name: 'Create', exact: true }).click();
    await page.getByLabel('Tags (optional)').waitFor();
  }, 90_000);

  it('shows the link’s page: record, QR code that decodes to fullURL, visits equal to the stats', async () => {
    const agents = [
      [
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
        'https://news.example.org/item',
      ],
      [
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
        'https://news.example.org/other',
      ],
      [
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
        '',
      ],
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
        'https://social.example.com/',
      ],
      ['Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0', 'https://search.example.net/?q=x'],
      [
        'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
        '',
      ],
      [
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
        'https://news.example.org/',
      ],
    ] as const;
    for (const [agent, referer] of agents) {
      const res = await request(`${h.url}/${code}`, {
        redirect: 'manual',
        headers: { 'user-agent': agent, ...(referer ? { referer } : {}) },
      });
      expect(res.status).toBe(302);
    }
    await expect
      .poll(async () => (await apiGet<{ visits: number }>(`/${code}/stats`)).visits, { timeout: 20_000 })
      .toBe(agents.length);
    const stats = await apiGet<{
      visits: number;
      days: Array<{ date: string; visits: number }>;
      referrers: Array<{ host: string; visits: number }>;
      countries: Array<{ country: string; visits: number }>;
      browsers: Array<{ name: string; visits: number }>;
      os: Array<{ name: string; visits: number }>;
      devices: Record<string, number>;
    }>(`/${code}/stats`);

    await page.goto(`${h.url}/console/#/links/${code}`);
    await page.locator('[data-chart="visits-per-day"]').waitFor();
    expect(await page.locator('#visits-total').textContent()).toBe(String(stats.visits));

    // The chart's bars: every day of the range, the stats' days with their visits, the rest 0.
    const bars = await page
      .locator('[data-chart="visits-per-day"] rect.bar')
      .evaluateAll((rects) => rects.map((r) => [r.getAttribute('data-date'), Number(r.getAttribute('data-visits'))]));
    expect(bars).toHaveLength(30);
    expect(bars.filter(([, visits]) => (visits as number) > 0)).toEqual(stats.days.map((d) => [d.date, d.visits]));
    expect(await page.getByRole('img', { name: 'Visits per day' }).count()).toBe(1);
    await page.getByLabel('Range').selectOption('7');
    expect(await page.locator('[data-chart="visits-per-day"] rect.bar').count()).toBe(7);

    // Each breakdown table holds the stats' list, in its order.
    const rows = (name: string) =>
      page
        .locator(`table[data-table="${name}"] tbody tr`)
        .evaluateAll((trs) =>
          trs.map((tr) => [tr.querySelector('th')?.textContent, Number(tr.querySelector('td.num')?.textContent)]),
        );
    expect(await rows('referrers')).toEqual(stats.referrers.map((r) => [r.host, r.visits]));
    expect(await rows('countries')).toEqual(stats.countries.map((r) => [r.country, r.visits]));
    expect(await rows('browsers')).toEqual(stats.browsers.map((r) => [r.name, r.visits]));
    expect(await rows('operating systems')).toEqual(stats.os.map((r) => [r.name, r.visits]));
    const devices = Object.fromEntries((await rows('devices')).map(([name, visits]) => [name, visits]));
    expect(devices).toEqual(stats.devices);
    expect(new Set(stats.browsers.map((b) => b.name)).size).toBeGreaterThan(2);
    expect(await page.locator('table[data-table="visits-per-day"] tfoot td').textContent()).toBe(String(agents.length));

    // The QR code, as the page shows it, reads as the short link.
    const qr = page.locator('#qr-image');
    await expect
      .poll(() => qr.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
    const shot = await sharp(await qr.screenshot())
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const read = jsQRModule.default(
      new Uint8ClampedArray(shot.data.buffer, shot.data.byteOffset, shot.data.byteLength),
      shot.info.width,
      shot.info.height,
    );
    expect(read?.data).toBe(`http://links.test/${code}`);
    const png = await page.getByRole('link', { name: 'Download PNG' }).getAttribute('href');
    const pngAnswer = await request(png!);
    expect(pngAnswer.status).toBe(200);
    expect(pngAnswer.headers.get('content-type')).toBe('image/png');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  }, 120_000);

  it('edits the target and credit with the management code it kept, and the redirect follows', async () => {
    const next = uniqueUrl('edited');
    expect(await page.getByLabel('Management code').inputValue()).not.toBe('');
    await page.getByLabel('Target URL').fill(next);
    await page.getByLabel('Credit', { exact: true }).fill('Edited');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const status = async () =>
      `${await page.locator('#edit-status').textContent()}${(await page.locator('.error:not([hidden])').allTextContents()).join(' ')}`;
    await expect.poll(status, { timeout: 10_000 }).toBe('Saved.');
    const record = await apiGet<{ url: string; credit: string }>(`/${code}.json`);
    expect(record).toMatchObject({ url: next, credit: 'Edited' });
    expect(await page.locator('#target').textContent()).toBe(next);
    expect((await request(`${h.url}/${code}`, { redirect: 'manual' })).headers.get('location')).toBe(next);
  }, 90_000);

  it('asks for the management code of a link it did not create, and says which was wrong', async () => {
    const made = await request<{ data: Listed }>(
      `${h.url}/create`,
      jsonInit('POST', { url: uniqueUrl('api') }, { authorization: h.key }),
    );
    await page.goto(`${h.url}/console/#/links/${made.body.data.code}`);
    await page.getByLabel('Management code').waitFor();
    expect(await page.getByLabel('Management code').inputValue()).toBe('');
    await page.getByLabel('Management code').fill('x'.repeat(40));
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('#edit-management-code-error').waitFor({ state: 'visible' });
    expect(await page.locator('#edit-management-code-error').textContent()).toMatch(/\(code 1078\)$/);
  }, 90_000);

  it('deletes the link with its management code', async () => {
    await page.goto(`${h.url}/console/#/links/${code}`);
    await page.getByRole('button', { name: 'Delete link' }).waitFor();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete link' }).click();
    await page.getByRole('heading', { name: 'Deleted' }).waitFor();
    const gone = await request(`${h.url}/${code}.json`, { headers: { authorization: h.key } });
    expect(gone.status).toBe(404);
  }, 90_000);
});

describe('the console at 360 px and signing out', () => {
  it('loads its first page with under 150 KB of compressed script and style, nothing from another origin', async () => {
    const [fresh, first] = await newPage();
    try {
      const transferred: Array<[string, number]> = [];
      first.on('requestfinished', (req) => {
        if (['script', 'stylesheet'].includes(req.resourceType()))
          void req.sizes().then((sizes) => transferred.push([req.url(), sizes.responseBodySize]));
      });
      await first.goto(`${h.url}/console/`);
      await first.getByLabel('API key').waitFor();
      await expect.poll(() => transferred.length).toBe(2);
      const total = transferred.reduce((sum, [, bytes]) => sum + bytes, 0);
      expect(total).toBeGreaterThan(0);
      expect(total).toBeLessThan(150 * 1024);
      for (const [url] of transferred) expect(url.startsWith(`${h.url}/console/assets/`), url).toBe(true);
    } finally {
      await fresh.close();
    }
  }, 90_000);

  it('fits a 360 px wide screen without horizontal scrolling, on the list and on a link’s page', async () => {
    const [small, phone] = await newPage({ viewport: { width: 360, height: 740 } });
    try {
      await signInWithKeyboard(phone, h.key);
      await phone.locator('table.links caption').waitFor();
      const overflow = () => phone.evaluate<number>('document.documentElement.scrollWidth');
      expect(await overflow()).toBeLessThanOrEqual(360);
      const shot = await sharp(await phone.screenshot({ fullPage: true })).metadata();
      expect(shot.width).toBe(360);
      await phone.locator('table.links tbody th a').first().focus();
      await phone.keyboard.press('Enter');
      await phone.locator('[data-chart="visits-per-day"]').waitFor();
      expect(await overflow()).toBeLessThanOrEqual(360);
      expect(await seriousAccessibilityViolations(phone)).toEqual([]);
      await phone.getByRole('link', { name: 'Create', exact: true }).click();
      await phone.getByLabel('URLs, one a line').waitFor();
      expect(await overflow()).toBeLessThanOrEqual(360);
      expect(await seriousAccessibilityViolations(phone)).toEqual([]);
    } finally {
      await small.close();
    }
  }, 120_000);

  it('signs out: the session ends and the sign-in form is back', async () => {
    await page.goto(`${h.url}/console/#/links`);
    await page.locator('table.links caption').waitFor();
    const cookie = (await context.cookies()).find((c) => c.name === 'pawlink_console');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    const after = await request(`${h.url}/links`, {
      headers: { cookie: `pawlink_console=${cookie!.value}`, 'x-pawlink-console': '1' },
    });
    expect(after.status).toBe(401);
    expect(problems).toEqual([]);
  }, 90_000);
});
