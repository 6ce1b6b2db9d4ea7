import { describe, expect, it } from 'vitest';
import { ShortLinkFiller } from './short-link-filler.service.js';
import type { ShortLinkBatch } from './short-links.service.js';

class FakeLock {
  held = false;
  free = true;
  acquire(): Promise<boolean> {
    if (this.free) this.held = true;
    return Promise.resolve(this.free);
  }
  release(): Promise<void> {
    this.held = false;
    return Promise.resolve();
  }
}

function setup(batches: Array<ShortLinkBatch | Error>) {
  const lock = new FakeLock();
  const logs: Array<[string, string, Record<string, unknown> | undefined]> = [];
  const calls: string[] = [];
  const links = {
    fillBatch: (after: string): Promise<ShortLinkBatch> => {
      calls.push(after);
      const next = batches.length > 1 ? batches.shift()! : batches[0]!;
      return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
    },
  };
  const logger = {
    info: (m: string, meta?: Record<string, unknown>) => logs.push(['info', m, meta]),
    warn: (m: string, meta?: Record<string, unknown>) => logs.push(['warn', m, meta]),
  };
  const filler = new ShortLinkFiller({ links, lock, logger, intervalMs: 100, maxBackoffMs: 1000 });
  return { filler, lock, logs, calls };
}

const down: ShortLinkBatch = {
  filled: 0,
  next: '',
  stop: { kind: 'failed', reason: 'the shortener is unreachable (ECONNREFUSED)' },
};

describe('ShortLinkFiller', () => {
  it('walks batches until none is left, under the lock, then waits one interval', async () => {
    const { filler, lock, calls } = setup([
      { filled: 3, next: 'c' },
      { filled: 1, next: null },
    ]);
    expect(await filler.runPass()).toBe(100);
    expect(calls).toEqual(['', 'c']);
    expect(lock.held).toBe(false);
  });

  it('skips its turn while another instance holds the lock', async () => {
    const { filler, lock, calls } = setup([{ filled: 3, next: null }]);
    lock.free = false;
    expect(await filler.runPass()).toBe(100);
    expect(calls).toEqual([]);
  });

  it('logs an outage once, backs off doubling up to the cap, and logs once when links are made again', async () => {
    const { filler, logs } = setup([down, down, down, down, down, { filled: 2, next: null }]);
    const pauses = [];
    for (let i = 0; i < 5; i++) pauses.push(await filler.runPass());
    expect(pauses).toEqual([200, 400, 800, 1000, 1000]);
    expect(logs).toEqual([
      [
        'warn',
        expect.stringContaining('cannot be made now'),
        { reason: 'the shortener is unreachable (ECONNREFUSED)' },
      ],
    ]);
    expect(await filler.runPass()).toBe(100);
    expect(logs).toHaveLength(2);
    expect(logs[1]).toEqual([
      'info',
      'Image short links are being made again',
      { after: 'the shortener is unreachable (ECONNREFUSED)' },
    ]);
  });

  it('waits for a 429 for as long as Retry-After says, without logging it', async () => {
    const { filler, logs } = setup([{ filled: 0, next: '', stop: { kind: 'rate-limited', retryAfterMs: 2500 } }]);
    expect(await filler.runPass()).toBe(2500);
    expect(logs).toEqual([]);
  });

  it('survives MySQL or Redis failing (logged once) and releases the lock', async () => {
    const { filler, logs, lock } = setup([new Error('Connection lost'), new Error('Connection lost')]);
    expect(await filler.runPass()).toBe(200);
    expect(await filler.runPass()).toBe(400);
    expect(logs).toHaveLength(1);
    expect(logs[0]![2]).toEqual({ reason: 'the filler could not read or store links: Connection lost' });
    expect(lock.held).toBe(false);
  });

  it('stops: no pass starts after stop(), and stop() waits for the pass under way', async () => {
    let release: () => void = () => undefined;
    const calls: string[] = [];
    const lock = new FakeLock();
    const filler = new ShortLinkFiller({
      links: {
        fillBatch: (after, shouldStop) => {
          calls.push(after);
          return new Promise((resolve) => {
            release = () => resolve({ filled: 1, next: shouldStop?.() ? after : 'z' });
          });
        },
      },
      lock,
      logger: { info: () => undefined, warn: () => undefined },
      intervalMs: 10,
    });
    filler.start();
    while (calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    let stopped = false;
    const stopping = filler.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(calls).toEqual(['']);
    expect(lock.held).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toEqual(['']);
  });
});
