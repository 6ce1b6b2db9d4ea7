import type { LogSink } from '../logger.js';
import { ChunkedFlusher } from './chunked-flusher.js';
import { nextUtcDayStart, utcDay } from './utc-day.js';

export interface DayTallyOptions<K, V, C> {
  /** A key's accumulator, made at its first count (and again if the key was idle for a whole flush). */
  empty: () => V;
  /** Appends what `value` holds (`key`'s counts on `day`) to `into`, as the counts Redis takes. */
  collect: (day: string, key: K, value: V, into: C[]) => void;
  /**
   * Empties `value` in place once collected: the key's next counts go into the same accumulator.
   * A collected value must be empty afterwards (collecting it again appends nothing).
   */
  reset: (value: V) => void;
  /** The key a collected count belongs to. */
  keyOf: (count: C) => K;
  /** Adds one chunk of counts to Redis, at most once per id. */
  send: (chunkId: string, counts: C[]) => Promise<void>;
  /** How often the tally goes to Redis. */
  flushMs: number;
  logger: LogSink;
  /** Names the counts in the log, e.g. "visit counts". */
  what: string;
  now?: () => number;
}

/** A key's accumulator, and whether the key was counted since the last drain. */
interface Slot<V> {
  readonly value: V;
  counted: boolean;
}

/**
 * The first step of counting on a hot path (count in process → flush to Redis → move to MySQL):
 * per UTC day, one accumulator per key, of a shape the configuration chooses (a number of visits,
 * the routes a key called, …), so a key can carry more than one number. A subclass adds to
 * `at(key)`: one Map lookup per count. Every `flushMs` a ChunkedFlusher sends what was counted to
 * Redis; a day that ends is set aside whole.
 *
 * A key counted flush after flush keeps its accumulator, emptied in place by `reset` (issue 37): an
 * accumulator made anew at every flush lived about a second, long enough for each young-generation
 * collection to copy it and the next to promote it, and the hot path's garbage collection pauses
 * grew with the number of keys counted. A key not counted during a whole flush period is let go.
 */
export class DayTally<K, V, C> {
  private readonly now: () => number;
  private day = '';
  private dayEndsAt = 0;
  private readonly today = new Map<K, Slot<V>>();
  /** Earlier days' counts not sent yet (a flush spanning midnight). */
  private earlier: C[] = [];
  private readonly flusher: ChunkedFlusher<C>;

  constructor(private readonly options: DayTallyOptions<K, V, C>) {
    this.now = options.now ?? Date.now;
    this.flusher = new ChunkedFlusher({
      drain: () => this.drain(),
      send: options.send,
      flushMs: options.flushMs,
      logger: options.logger,
      what: options.what,
    });
  }

  /** The accumulator of `key` for the current UTC day, to add to. */
  protected at(key: K): V {
    const now = this.now();
    if (now >= this.dayEndsAt) this.startDay(now);
    const slot = this.today.get(key);
    if (slot === undefined) {
      const value = this.options.empty();
      this.today.set(key, { value, counted: true });
      return value;
    }
    slot.counted = true;
    return slot.value;
  }

  private startDay(now: number): void {
    this.takeToday(this.earlier);
    this.day = utcDay(now);
    this.dayEndsAt = nextUtcDayStart(now);
  }

  /**
   * Appends what was counted since the last call to `into` and empties each accumulator in place,
   * in one synchronous step (no count can fall between the collect and the reset); a key counted
   * nothing since is dropped.
   */
  private takeToday(into: C[]): void {
    const { collect, reset } = this.options;
    const today = this.today;
    // Map#forEach: no [key, value] pair made per key; deleting the entry being visited is defined.
    today.forEach((slot, key) => {
      if (!slot.counted) {
        today.delete(key);
        return;
      }
      collect(this.day, key, slot.value, into);
      reset(slot.value);
      slot.counted = false;
    });
  }

  /** Everything counted since the last drain, emptying the tally (the flusher's source). */
  drain(): C[] {
    const drained = this.earlier;
    this.earlier = [];
    this.takeToday(drained);
    return drained;
  }

  /** The counts of `key` this process holds and Redis does not have yet (tallied, or waiting for a retry). */
  unflushedOf(key: K): C[] {
    const { keyOf, collect } = this.options;
    const found = this.earlier.filter((count) => keyOf(count) === key);
    const slot = this.today.get(key);
    if (slot?.counted === true) collect(this.day, key, slot.value, found);
    for (const count of this.flusher.waiting) if (keyOf(count) === key) found.push(count);
    return found;
  }

  /** Sends what is tallied (and what failed before) to Redis; one flush at a time. */
  flush(): Promise<void> {
    return this.flusher.flush();
  }

  start(): void {
    this.flusher.start();
  }

  /** Stops the timer and sends what is left (at shutdown). */
  stop(): Promise<void> {
    return this.flusher.stop();
  }
}
