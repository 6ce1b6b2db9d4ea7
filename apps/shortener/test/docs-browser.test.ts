import { shortenerOpenApi } from '../src/openapi.js';
import { inspectDocsPage } from '@pawlink/test-kit/browser';
import { describeDocsPage } from '@pawlink/test-kit/suites/docs-page';
import { expect, it } from 'vitest';
import { startHarness } from './support.js';

describeDocsPage({
  start: () => startHarness('sh-docs-browser'),
  document: shortenerOpenApi,
  title: 'Pawlink shortener',
  publicUrl: (h) => h.config.urls.shortener,
  // The console for link owners is linked from the header.
  expectView: (view) => expect(view.header).toContain('Console: for link owners'),
  more: ({ harness, browser }) => {
    it('would report an inline style the CSP blocks (so the check above can fail)', async () => {
      const view = await inspectDocsPage(browser(), `${harness().url}/`, 1, {
        afterRender:
          "document.head.appendChild(Object.assign(document.createElement('style'), { textContent: 'body { color: red }' }))",
      });
      expect(view.problems.some((problem) => problem.startsWith('CSP violation: style-src-elem'))).toBe(true);
    }, 90_000);
  },
});
