import { describe, expect, it } from 'vitest';
import { DayTally } from './day-tally.js';

interface Count {
  key: string;
  day: string;
  n: number;
}

const quietLogger = { info: () => undefined, warn: () => undefined };

/** A tally of one number per key, remembering each accumulator it was given. */
class CountTally extends DayTally<string, { n: number }, Count> {
  readonly made: Array<{ n: number }> = [];

  constructor(now: () => number, send: (chunkId: string, counts: Count[]) => Promise<void> = () => Promise.resolve()) {
    super({
      empty: () => {
        const value = { n: 0 };
        this.made.push(value);
        return value;
      },
      collect: (day, key, value, into) => into.push({ key, day, n: value.n }),
      reset: (value) => {
        value.n = 0;
      },
      keyOf: (count) => count.key,
      send,
      flushMs: 60_000,
      logger: quietLogger,
      what: 'test counts',
      now,
    });
  }

  add(key: string): void {
    this.at(key).n += 1;
  }
}

const NOON = Date.UTC(2026, 10, 28, 12);

describe('DayTally', () => {
  it('keeps the accumulator of a key counted again after a drain, emptied, and counts only what came since', () => {
    const tally = new CountTally(() => NOON);
    tally.add('a');
    tally.add('a');
    expect(tally.drain()).toEqual([{ key: 'a', day: '2026-11-28', n: 2 }]);
    tally.add('a');
    expect(tally.drain()).toEqual([{ key: 'a', day: '2026-11-28', n: 1 }]);
    expect(tally.made).toHaveLength(1);
  });

  it('drains nothing for a key not counted since the last drain, and lets it go after a whole idle period', () => {
    const tally = new CountTally(() => NOON);
    tally.add('a');
    tally.add('b');
    tally.drain();
    tally.add('b');
    expect(tally.drain()).toEqual([{ key: 'b', day: '2026-11-28', n: 1 }]);
    expect(tally.unflushedOf('a')).toEqual([]);
    // 'a' was idle for a whole period: dropped, so its next count starts a new accumulator.
    tally.add('a');
    expect(tally.made).toHaveLength(3);
    expect(tally.drain()).toEqual([{ key: 'a', day: '2026-11-28', n: 1 }]);
  });

  it('loses no count made while a flush is being sent: it goes with the next one', async () => {
    const sent: Count[] = [];
    let holding = true;
    let release: () => void = () => undefined;
    const tally = new CountTally(
      () => NOON,
      (_id, counts) => {
        if (!holding) {
          sent.push(...counts);
          return Promise.resolve();
        }
        return new Promise<void>((resolve) => {
          release = () => {
            sent.push(...counts);
            resolve();
          };
        });
      },
    );
    tally.add('a');
    const first = tally.flush();
    tally.add('a');
    tally.add('a');
    release();
    await first;
    expect(sent).toEqual([{ key: 'a', day: '2026-11-28', n: 1 }]);
    expect(tally.unflushedOf('a')).toEqual([{ key: 'a', day: '2026-11-28', n: 2 }]);
    holding = false;
    await tally.stop();
    expect(sent).toEqual([
      { key: 'a', day: '2026-11-28', n: 1 },
      { key: 'a', day: '2026-11-28', n: 2 },
    ]);
  });

  it('sets a day that ends aside whole under its own day, and counts the next day from zero', () => {
    let now = Date.UTC(2026, 10, 28, 23, 59, 59, 900);
    const tally = new CountTally(() => now);
    tally.add('a');
    tally.add('a');
    now = Date.UTC(2026, 10, 29, 0, 0, 0, 100);
    tally.add('a');
    expect(tally.unflushedOf('a')).toEqual([
      { key: 'a', day: '2026-11-28', n: 2 },
      { key: 'a', day: '2026-11-29', n: 1 },
    ]);
    expect(tally.drain()).toEqual([
      { key: 'a', day: '2026-11-28', n: 2 },
      { key: 'a', day: '2026-11-29', n: 1 },
    ]);
    expect(tally.drain()).toEqual([]);
    expect(tally.made).toHaveLength(1);
  });
});
