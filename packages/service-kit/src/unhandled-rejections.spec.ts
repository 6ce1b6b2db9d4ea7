import { describe, expect, it } from 'vitest';
import { DependencyUnavailableError } from './dependencies/dependency-failure.js';
import { unhandledRejectionHandler } from './unhandled-rejections.js';

function recorder() {
  const lines: Array<{ level: string; message: string; meta?: Record<string, unknown> }> = [];
  const exits: number[] = [];
  const handler = unhandledRejectionHandler(
    {
      warn: (message, meta) => lines.push({ level: 'warn', message, meta }),
      error: (message, meta) => lines.push({ level: 'error', message, meta }),
    },
    (code) => exits.push(code),
  );
  return { lines, exits, handler };
}

describe('unhandledRejectionHandler', () => {
  it.each([
    ['ioredis command timeout', new Error('Command timed out')],
    ['ioredis closed connection', new Error('Connection is closed.')],
    ['an open database circuit', new DependencyUnavailableError('database')],
  ])('logs a rejection of an unavailable dependency (%s) and keeps the process running', (_, error) => {
    const { lines, exits, handler } = recorder();
    handler(error);
    expect(exits).toEqual([]);
    expect(lines).toEqual([
      {
        level: 'warn',
        message: 'unhandled rejection of a dependency call',
        meta: { dependency: expect.any(String), error },
      },
    ]);
  });

  it.each([
    ['a bug', new TypeError('Cannot read properties of undefined')],
    ['a refused Redis command', new Error('WRONGTYPE Operation against a key holding the wrong kind of value')],
    ['a value that is not an error', 'nope'],
  ])('logs any other rejection (%s) as an error and exits 1', (_, reason) => {
    const { lines, exits, handler } = recorder();
    handler(reason);
    expect(exits).toEqual([1]);
    expect(lines).toEqual([{ level: 'error', message: 'unhandled rejection', meta: { error: reason } }]);
  });
});
