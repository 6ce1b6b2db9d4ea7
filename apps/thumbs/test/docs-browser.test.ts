import { HTTP_METHODS, thumbsOpenApi, servedDocument } from '@pawlink/contracts/openapi';
import { inspectDocsPage, launchChromium } from '@pawlink/test-kit/browser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startThumbs, type ThumbsHarness } from './helpers.js';

let h: ThumbsHarness;
let browser: Browser;

beforeAll(async () => {
  h = await startThumbs();
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

describe('the documentation page in Chromium', () => {
  it('renders the reference of every path of the document, with no console error and no CSP violation', async () => {
    const served = servedDocument(thumbsOpenApi, 'http://docs.test');
    const operations = Object.values(served.paths).flatMap((item) => HTTP_METHODS.filter((method) => item[method] !== undefined)).length;
    const view = await inspectDocsPage(browser, `${h.url}/`, operations);
    expect(view.status).toBe(200);
    expect(view.paths.sort()).toEqual(Object.keys(served.paths).sort());
    // The title once as a reader sees it: the header has it, Swagger UI's own title block is left out.
    expect(view.text.split('Pawlink thumbnails').length - 1).toBe(1);
    expect(view.header).toContain('Pawlink thumbnails');
    expect(view.header).toContain('WebP');
    // Path parameters named for what they are; bull-board's own routes are not public API.
    expect(view.paths).toContain('/check/{md5}/{type}');
    expect(view.paths.filter((path) => path.startsWith('/admin/queues'))).toEqual([]);
    expect(view.header).toContain(h.config.urls.thumbs);
    expect(view.header).toContain('Authorization: <key>');
    expect(view.header).toContain('Rate limits');
    expect(view.problems).toEqual([]);
    expect(view.foreignRequests).toEqual([]);
  }, 90_000);
});
