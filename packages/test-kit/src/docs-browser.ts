import { chromium, type Browser } from 'playwright-core';
import { seriousAccessibilityViolations } from './axe.js';

export { seriousAccessibilityViolations } from './axe.js';

/** The path of every operation Swagger UI rendered (a deprecated one's has a class of its own). */
const OPERATION_PATHS = '.opblock-summary-path[data-path], .opblock-summary-path__deprecated[data-path]';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Debian's Chromium, driven by playwright-core, with a fresh temporary profile. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS, timeout: 60_000 });
}

/** What a documentation page showed in a real browser. */
export interface DocsPageView {
  status: number | undefined;
  /** The path of every operation the rendered reference lists (`data-path`), deduplicated. */
  paths: string[];
  /** The header's text (service name, base URL, auth, limits, links, tables). */
  header: string;
  /** All the page shows as text once rendered (whitespace collapsed): what a reader sees, e.g. how often the title appears. */
  text: string;
  /** Console errors and warnings, page errors, failed requests and CSP violations, as they came. */
  problems: string[];
  /** Requests the page made to other origins. */
  foreignRequests: string[];
  /** Serious and critical violations axe-core finds once the reference is rendered. */
  accessibility: string[];
}

/**
 * Opens `url` (a service's `GET /`) in Chromium, waits for Swagger UI to render the reference,
 * and reports what it lists and every console error, page error, failed request and CSP
 * violation (`securitypolicyviolation` events, listened for before any script of the page runs).
 * `afterRender` is a script run once the reference is there (a test proving violations are seen).
 */
export async function inspectDocsPage(
  browser: Browser,
  url: string,
  expectedOperations: number,
  options: { afterRender?: string; screenshot?: string } = {},
): Promise<DocsPageView> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems: string[] = [];
  const foreignRequests: string[] = [];
  const origin = new URL(url).origin;
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()} ${req.failure()?.errorText ?? ''}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()} ${response.url()}`);
  });
  page.on('request', (req) => {
    if (!req.url().startsWith(origin) && !req.url().startsWith('data:')) foreignRequests.push(req.url());
  });
  await page.exposeFunction('__reportCspViolation', (text: string) => problems.push(text));
  // A string, not a function: this package is compiled without the DOM's types.
  await page.addInitScript({
    content:
      "document.addEventListener('securitypolicyviolation', function (e) { window.__reportCspViolation('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sample); });",
  });
  try {
    const response = await page.goto(url);
    await page.waitForFunction(
      // Swagger UI gives a deprecated operation's path a class of its own.
      `document.querySelectorAll('${OPERATION_PATHS}').length >= ${Number(expectedOperations)}`,
      undefined,
      { timeout: 30_000 },
    );
    // A moment for anything the renderer loads after its first paint.
    await page.waitForLoadState('networkidle');
    if (options.afterRender) {
      await page.evaluate(options.afterRender);
      await page.waitForTimeout(200);
    }
    if (options.screenshot) await page.screenshot({ path: options.screenshot, fullPage: true });
    const paths = await page.evaluate<string[]>(
      `[...document.querySelectorAll('${OPERATION_PATHS}')].map((e) => e.getAttribute('data-path') || '')`,
    );
    const header = (await page.locator('header.pawlink-docs').innerText()).replace(/\s+/g, ' ');
    const text = (await page.locator('body').innerText()).replace(/\s+/g, ' ');
    const accessibility = await seriousAccessibilityViolations(page);
    return {
      status: response?.status(),
      paths: [...new Set(paths)],
      header,
      text,
      problems,
      foreignRequests,
      accessibility,
    };
  } finally {
    await context.close();
  }
}
