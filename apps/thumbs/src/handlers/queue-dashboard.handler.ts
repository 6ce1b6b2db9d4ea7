import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import type { Queue } from 'bullmq';
import type { RequestHandler } from 'express';
import { DashboardPageAdapter } from '../views/queue-dashboard.page.js';

/**
 * bull-board's own scripts and styles are served from here; inline styles are its React UI's.
 * Its web font is not loaded (no third-party host; DashboardPageAdapter leaves its stylesheet
 * out of the page): the UI falls back to system fonts.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The queue dashboard (bull-board) for `queues`, mounted at `basePath`: its UI, assets and API. */
export function queueDashboardHandler(queues: Queue[], basePath: string): RequestHandler {
  const serverAdapter = new DashboardPageAdapter();
  serverAdapter.setBasePath(basePath);
  createBullBoard({ queues: queues.map((queue) => new BullMQAdapter(queue)), serverAdapter, options: { uiConfig: { boardTitle: 'Pawlink thumbnails' } } });
  const board = serverAdapter.getRouter() as RequestHandler & { disable?: (setting: string) => void };
  board.disable?.('x-powered-by');
  return (req, res, next) => {
    res.setHeader('Content-Security-Policy', DASHBOARD_CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    board(req, res, next);
  };
}
