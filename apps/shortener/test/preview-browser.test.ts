import { launchChromium } from '@pawlink/test-kit/browser';
import jsQRModule from 'jsqr';
import sharp from 'sharp';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, startHarness, uniqueUrl, type Harness } from './support.js';

let h: Harness;
let browser: Browser;
let code: string;
let target: string;
const CREDIT = '<img src=x onerror="window.pwned=1">';

beforeAll(async () => {
  h = await startHarness('sh-browser');
  target = `${uniqueUrl('browser')}?q='onfocus='window.pwned=2'`;
  const created = await create(h, { url: target, credit: CREDIT });
  expect(created.status).toBe(201);
  code = created.body.data.code;
  target = created.body.data.url!;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

describe('preview page in Chromium', () => {
  it('runs its own script under the CSP, renders payloads as text and copies the destination', async () => {
    const context = await browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.url });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      // Chromium reports a blocked inline style or script as a console error naming the CSP.
      if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    const response = await page.goto(`${h.url}/${code}+`);
    expect(response?.status()).toBe(200);

    expect(await page.locator('#credit').textContent()).toBe(CREDIT);
    expect(await page.locator('#target-link').getAttribute('href')).toBe(target);
    expect(await page.locator('#target-url').inputValue()).toBe(target);
    expect(await page.locator('#credit img').count()).toBe(0);
    expect(await page.evaluate('window.pwned')).toBeUndefined();

    const button = page.locator('#copy-button');
    await button.waitFor({ state: 'visible' });
    await button.click();
    await expect.poll(() => button.textContent(), { timeout: 20_000 }).not.toBe('Copy');
    const label = await button.textContent();
    expect(label).toBe('Copied!');
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(target);

    // The hashed inline style applied too (main is 42rem wide).
    expect(await page.evaluate("getComputedStyle(document.querySelector('main')).maxWidth")).toBe('672px');
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);

  it('keeps the destination selectable without JavaScript, with the button hidden', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${h.url}/${code}+`);
    expect(await page.locator('#copy-button').isVisible()).toBe(false);
    expect(await page.locator('#target-url').isVisible()).toBe(true);
    expect(await page.locator('#target-url').inputValue()).toBe(target);
    expect(await page.locator('#target-url').isEditable()).toBe(false);
    expect(await page.locator('#target-link').getAttribute('href')).toBe(target);
    await context.close();
  }, 90_000);

  it('shows the QR code of the short link, readable from the rendered page, under the CSP', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
    });
    await page.goto(`${h.url}/${code}+`);
    const qr = page.locator('#qr svg');
    const box = await qr.boundingBox();
    // 12rem square, from the page's hashed style.
    expect([box?.width, box?.height]).toEqual([192, 192]);
    const shot = await sharp(await qr.screenshot())
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const read = jsQRModule.default(
      new Uint8ClampedArray(shot.data.buffer, shot.data.byteOffset, shot.data.byteLength),
      shot.info.width,
      shot.info.height,
    );
    expect(read?.data).toBe(`https://pawl.ink/${code}`);
    expect(await page.locator('#qr-png').getAttribute('href')).toBe(`https://pawl.ink/${code}/qr?format=png`);
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);
});
