import { HTTP_METHODS, servedDocument, type OpenApiDocument } from '@pawlink/contracts/openapi';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectDocsPage, launchChromium, type DocsPageView } from '../docs-browser.js';

/** A running service as a test harness has it: where it answers, and how it stops. */
export interface ServiceUnderTest {
  url: string;
  close(): Promise<void>;
}

export interface DocsPageSuite<H extends ServiceUnderTest> {
  /** Starts the service with what its page must list. */
  start(): Promise<H>;
  /** The service's OpenAPI document (the one the tests use; the page shows its served form). */
  document: OpenApiDocument;
  /** The page's title, e.g. `Pawlink images`: once on the page, in its header. */
  title: string;
  /** The base URL the header names (the service's configured public URL). */
  publicUrl(harness: H): string;
  /** What else this service's page shows. */
  expectView?(view: DocsPageView, harness: H): void;
  /** The app's own cases, beside the shared one, with the same service and browser. */
  more?(context: { harness: () => H; browser: () => Browser }): void;
}

/**
 * `GET /` of a service in Chromium: the reference of every path of its document, its title once,
 * the header (base URL, auth, rate limits), no console error, CSP violation or foreign request, and
 * no serious or critical axe-core violation.
 */
export function describeDocsPage<H extends ServiceUnderTest>(suite: DocsPageSuite<H>): void {
  let harness: H;
  let browser: Browser;

  beforeAll(async () => {
    harness = await suite.start();
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await harness?.close();
  });

  describe('the documentation page in Chromium', () => {
    it('renders the reference of every path of the document, with no console error and no CSP violation', async () => {
      const served = servedDocument(suite.document, 'http://docs.test');
      const operations = Object.values(served.paths).flatMap((item) =>
        HTTP_METHODS.filter((method) => item[method] !== undefined),
      ).length;
      const view = await inspectDocsPage(browser, `${harness.url}/`, operations);
      expect(view.status).toBe(200);
      expect(view.paths.sort()).toEqual(Object.keys(served.paths).sort());
      // The title once as a reader sees it: the header has it, Swagger UI's own title block is left out.
      expect(view.text.split(suite.title).length - 1).toBe(1);
      expect(view.header).toContain(suite.title);
      expect(view.header).toContain(suite.publicUrl(harness));
      expect(view.header).toContain('Authorization: <key>');
      expect(view.header).toContain('Rate limits');
      suite.expectView?.(view, harness);
      expect(view.problems).toEqual([]);
      expect(view.foreignRequests).toEqual([]);
      // axe-core: no serious or critical accessibility violation (contrast, names, nesting).
      expect(view.accessibility).toEqual([]);
    }, 90_000);

    suite.more?.({ harness: () => harness, browser: () => browser });
  });
}
