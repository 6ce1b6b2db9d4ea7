import { beforeEach, describe, expect, it } from 'vitest';
import { WaitListSnapshot, type WaitListIds } from './wait-list-snapshot.repository.js';

const MAX_AGE_MS = 250;
const MIN_AGE_MS = 50;

/** The wait list as Redis holds it (front last), and each read of it, answered when the spec says. */
class FakeWaitList {
  ids: string[] = [];
  reads = 0;
  private pending: Array<() => void> = [];
  /** While held, reads wait for release(). */
  held = false;

  read = (): Promise<WaitListIds> => {
    this.reads++;
    const answer = [...this.ids];
    if (!this.held) return Promise.resolve(answer);
    return new Promise((resolve) => this.pending.push(() => resolve(answer)));
  };

  release(): void {
    this.held = false;
    for (const resolve of this.pending.splice(0)) resolve();
  }
}

let now: number;
let list: FakeWaitList;
let snapshot: WaitListSnapshot;
beforeEach(() => {
  now = 1_700_000_000_000;
  list = new FakeWaitList();
  list.ids = ['c', 'b', 'a'];
  snapshot = new WaitListSnapshot(list.read, { maxAgeMs: MAX_AGE_MS, minAgeMs: MIN_AGE_MS, clock: () => now });
});

describe('WaitListSnapshot', () => {
  it('places a job by the jobs a worker takes before it; a job not in the list has no place', async () => {
    expect(await snapshot.waitingAhead('a')).toBe(0);
    expect(await snapshot.waitingAhead('b')).toBe(1);
    expect(await snapshot.waitingAhead('c')).toBe(2);
    expect(await snapshot.waitingAhead('z')).toBeNull();
    expect(list.reads).toBe(1);
  });

  it('is read again once it is maxAgeMs old, never before', async () => {
    await snapshot.waitingAhead('a');
    list.ids = ['d', 'c', 'b'];
    now += MAX_AGE_MS - 1;
    expect(await snapshot.waitingAhead('a')).toBe(0);
    expect(list.reads).toBe(1);
    now += 1;
    expect(await snapshot.waitingAhead('a')).toBeNull();
    expect(await snapshot.waitingAhead('d')).toBe(2);
    expect(list.reads).toBe(2);
  });

  it('is read again after a queue event once it is minAgeMs old, and once for many events', async () => {
    await snapshot.waitingAhead('a');
    list.ids = ['c', 'b'];
    snapshot.invalidate();
    now += MIN_AGE_MS - 1;
    expect(await snapshot.waitingAhead('a')).toBe(0);
    expect(list.reads).toBe(1);
    snapshot.invalidate();
    now += 1;
    expect(await snapshot.waitingAhead('b')).toBe(0);
    expect(list.reads).toBe(2);
    expect(await snapshot.waitingAhead('c')).toBe(1);
    expect(list.reads).toBe(2);
  });

  it('reads once for every question asked while a read is under way', async () => {
    list.held = true;
    const answers = Promise.all(['a', 'b', 'c'].map(async (id) => snapshot.waitingAhead(id)));
    list.release();
    expect(await answers).toEqual([0, 1, 2]);
    expect(list.reads).toBe(1);
  });

  it('counts an event that came while it was being read', async () => {
    list.held = true;
    const during = snapshot.waitingAhead('a');
    snapshot.invalidate();
    list.release();
    expect(await during).toBe(0);
    list.ids = ['c', 'b'];
    now += MIN_AGE_MS;
    expect(await snapshot.waitingAhead('a')).toBeNull();
    expect(list.reads).toBe(2);
  });
});
