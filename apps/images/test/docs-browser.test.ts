import { HTTP_METHODS, imagesOpenApi, servedDocument } from '@pawlink/contracts/openapi';
import { inspectDocsPage, launchChromium } from '@pawlink/test-kit/browser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support.js';

let h: Harness;
let browser: Browser;

beforeAll(async () => {
  h = await startHarness('img-docs-browser');
  await h.addCategory('furry.hug', 'Furry > Hug');
  await h.addImage('furry.hug', 1);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

describe('the documentation page in Chromium', () => {
  it('renders the reference of every path of the document, with no console error and no CSP violation', async () => {
    const served = servedDocument(imagesOpenApi, 'http://docs.test');
    const operations = Object.values(served.paths).flatMap((item) => HTTP_METHODS.filter((method) => item[method] !== undefined)).length;
    const view = await inspectDocsPage(browser, `${h.url}/`, operations);
    expect(view.status).toBe(200);
    expect(view.paths.sort()).toEqual(Object.keys(served.paths).sort());
    // The title once as a reader sees it: the header has it, Swagger UI's own title block is left out.
    expect(view.text.split('Pawlink images').length - 1).toBe(1);
    expect(view.header).toContain('Pawlink images');
    expect(view.header).toContain(h.config.urls.images);
    expect(view.header).toContain('Authorization: <key>');
    expect(view.header).toContain('Rate limits');
    expect(view.header).toContain('Furry > Hug furry.hug 1 enabled');
    expect(view.problems).toEqual([]);
    expect(view.foreignRequests).toEqual([]);
  }, 90_000);
});
