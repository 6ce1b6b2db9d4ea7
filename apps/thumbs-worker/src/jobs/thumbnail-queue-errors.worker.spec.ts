import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { isConnectionError, logQueueErrors } from './thumbnail-queue-errors.worker.js';

/** A BullMQ worker's shape as far as its error log goes: its 'error' events and its backend's 'ready'. */
class FakeQueueEvents extends EventEmitter {
  readonly backend = new EventEmitter();
  getBackend(): EventEmitter {
    return this.backend;
  }
}

const refused = (): Error => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' });

describe('logQueueErrors', () => {
  it('logs a lost connection once however often it is re-emitted, and once when a connection is ready again', () => {
    const lines: string[] = [];
    const logger = {
      info: (m: string) => lines.push(`info ${m}`),
      warn: (m: string) => lines.push(`warn ${m}`),
      error: (m: string) => lines.push(`error ${m}`),
    };
    const worker = new FakeQueueEvents();
    logQueueErrors(worker, logger as never, 'thumbnail worker');
    worker.backend.emit('ready');
    for (let i = 0; i < 50; i++) worker.emit('error', i % 2 ? refused() : new Error('Connection is closed.'));
    worker.backend.emit('ready');
    worker.backend.emit('ready');
    worker.emit('error', refused());
    worker.emit('error', new Error('Missing lock for job 1. moveToFinished'));
    worker.emit('error', new Error('Missing lock for job 2. moveToFinished'));
    expect(lines).toEqual([
      'warn thumbnail worker lost its Redis connection',
      'info thumbnail worker reconnected to Redis',
      'warn thumbnail worker lost its Redis connection',
      'error thumbnail worker error',
      'error thumbnail worker error',
    ]);
  });

  it('tells connection failures from other errors', () => {
    expect(
      [
        refused(),
        new Error('Connection is closed.'),
        Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
        new Error('Reached the max retries per request limit (which is 2).'),
      ].map(isConnectionError),
    ).toEqual([true, true, true, true]);
    expect([new Error('Missing lock for job x'), new Error('ERR unknown command')].map(isConnectionError)).toEqual([
      false,
      false,
    ]);
  });
});
