/**
 * The demo board process (`npm start -- --demo` runs it): DEMO_BOARD_PORT (default 3009) on
 * 127.0.0.1, files kept in DEMO_BOARD_DIR (default ./data/demo-board).
 */
import '@pawlink/service-kit/check-node';
import path from 'node:path';
import { readPort, readString } from '@pawlink/service-kit';
import { DEMO_BOARD_DEFAULT_PORT } from '../board.defaults.js';
import { startDemoBoard } from './demo-board.js';

const port = readPort(process.env, 'DEMO_BOARD_PORT', DEMO_BOARD_DEFAULT_PORT);
const dir = path.resolve(readString(process.env, 'DEMO_BOARD_DIR', './data/demo-board'));
const log = (message: string, fields: Record<string, unknown> = {}): void => {
  process.stdout.write(
    `${JSON.stringify({ level: 'info', service: 'demo-board', message, ...fields, timestamp: new Date().toISOString() })}\n`,
  );
};

log('making the demo posts (first start only)', { dir });
const board = await startDemoBoard({ dir, port });
log('demo board listening', { url: board.url, posts: board.posts });
// `on`, not `once`: a second signal while closing joins the close instead of killing the process.
let closing: Promise<void> | undefined;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    closing ??= board.close().then(() => process.exit(0));
  });
}
