import { request } from '@pawlink/test-kit';
import { launchChromium } from '@pawlink/test-kit/browser';
import { UnrecoverableError } from 'bullmq';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5For, startThumbs, waitFor, type ThumbsHarness } from './helpers.js';

const REASON = 'the post could not be found on the board';

let h: ThumbsHarness;
let browser: Browser;
let adminKey: string;
let md5: string;

beforeAll(async () => {
  h = await startThumbs();
  adminKey = await h.newKey(['admin']);
  // A job queued through the API, which the worker fails.
  md5 = md5For('dashboard');
  h.startWorker(() => Promise.reject(new UnrecoverableError(REASON)));
  const put = await request(`${h.url}/${md5}/gif`, { method: 'PUT', headers: h.auth });
  expect(put.status).toBe(202);
  await waitFor(async () => ((await h.queue.getFailedCount()) > 0 ? true : undefined));
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

async function logIn(page: Page, key: string): Promise<number | undefined> {
  await page.goto(`${h.url}/admin/queues/`);
  // Not logged in: the browser lands on the login form.
  expect(new URL(page.url()).pathname).toBe('/admin/login');
  await page.fill('#key', key);
  const [response] = await Promise.all([page.waitForNavigation(), page.click('#login')]);
  return response?.status();
}

describe('queue dashboard in Chromium', () => {
  it('logs an admin key in through the form and shows the failed job with its reason', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cspViolations: string[] = [];
    const foreignRequests: string[] = [];
    page.on('console', (message) => {
      if (/Refused to (execute|load the script|load the stylesheet|load the font)/i.test(message.text()))
        cspViolations.push(message.text());
    });
    page.on('request', (req) => {
      if (!req.url().startsWith(h.url) && !req.url().startsWith('data:')) foreignRequests.push(req.url());
    });
    expect(await logIn(page, adminKey)).toBe(200);
    expect(new URL(page.url()).pathname).toBe('/admin/queues/');
    const cookies = await context.cookies();
    expect(cookies.find((cookie) => cookie.name === 'pawlink_admin')).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
      path: '/admin',
    });

    await page.goto(`${h.url}/admin/queues/queue/thumbs?status=failed`);
    await expect
      .poll(async () => (await page.textContent('body')) ?? '', { timeout: 30_000, interval: 250 })
      .toContain(`${md5}.gif`);
    await expect
      .poll(async () => (await page.textContent('body')) ?? '', { timeout: 30_000, interval: 250 })
      .toContain(REASON);
    expect(cspViolations).toEqual([]);
    // bull-board's page links Google Fonts, which the CSP blocks: the page is served without it.
    expect(foreignRequests).toEqual([]);
    await context.close();
  }, 90_000);

  it('refuses a key without the admin flag: the form again with the reason, no session', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    expect(await logIn(page, h.key)).toBe(403);
    expect(await page.textContent('#error')).toContain('does not have access');
    expect((await context.cookies()).find((cookie) => cookie.name === 'pawlink_admin')).toBeUndefined();
    await page.goto(`${h.url}/admin/queues/queue/thumbs`);
    expect(new URL(page.url()).pathname).toBe('/admin/login');
    await context.close();
  }, 90_000);
});
