import { HTTP_METHODS, shortenerOpenApi, servedDocument } from '@pawlink/contracts/openapi';
import { inspectDocsPage, launchChromium } from '@pawlink/test-kit/browser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support.js';

let h: Harness;
let browser: Browser;

beforeAll(async () => {
  h = await startHarness('sh-docs-browser');
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

describe('the documentation page in Chromium', () => {
  it('renders the reference of every path of the document, with no console error and no CSP violation', async () => {
    const served = servedDocument(shortenerOpenApi, 'http://docs.test');
    const operations = Object.values(served.paths).flatMap((item) => HTTP_METHODS.filter((method) => item[method] !== undefined)).length;
    const view = await inspectDocsPage(browser, `${h.url}/`, operations);
    expect(view.status).toBe(200);
    expect(view.paths.sort()).toEqual(Object.keys(served.paths).sort());
    // The title once as a reader sees it: the header has it, Swagger UI's own title block is left out.
    expect(view.text.split('Pawlink shortener').length - 1).toBe(1);
    expect(view.header).toContain('Pawlink shortener');
    expect(view.header).toContain(h.config.urls.shortener);
    expect(view.header).toContain('Authorization: <key>');
    expect(view.header).toContain('Rate limits');
    expect(view.problems).toEqual([]);
    expect(view.foreignRequests).toEqual([]);
  }, 90_000);

  it('would report an inline style the CSP blocks (so the check above can fail)', async () => {
    const view = await inspectDocsPage(browser, `${h.url}/`, 1, {
      afterRender: "document.head.appendChild(Object.assign(document.createElement('style'), { textContent: 'body { color: red }' }))",
    });
    expect(view.problems.some((problem) => problem.startsWith('CSP violation: style-src-elem'))).toBe(true);
  }, 90_000);
});
