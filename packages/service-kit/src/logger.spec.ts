import { Writable } from 'node:stream';
import winston from 'winston';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';

describe('createLogger', () => {
  it('writes JSON lines with the service and errors in metadata serialised', () => {
    const lines: string[] = [];
    const logger = createLogger('images', 'info');
    logger.clear();
    logger.add(
      new winston.transports.Stream({
        stream: new Writable({
          write(chunk: Buffer, _enc, done) {
            lines.push(chunk.toString());
            done();
          },
        }),
      }),
    );
    logger.error('unhandled error', { error: new Error('disk on fire') });
    const entry = JSON.parse(lines[0] ?? '{}');
    expect(entry).toMatchObject({
      level: 'error',
      message: 'unhandled error',
      service: 'images',
      error: { name: 'Error', message: 'disk on fire' },
    });
    expect(entry.error.stack).toContain('logger.spec.ts');
    expect(entry.timestamp).toEqual(expect.any(String));
  });
});
