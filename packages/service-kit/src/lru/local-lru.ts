interface Entry<T> {
  value: T;
  expires: number;
}

/**
 * A bounded in-process cache whose entries expire, dropping the least recently used first (a Map
 * keeps insertion order, so a read re-inserts its entry). `generation` moves on every drop: a fill
 * that read its value before a drop passes the generation it started with and is not remembered,
 * so an edit announced while a load was in flight cannot be undone by that load.
 */
export class LocalLru<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private drops = 0;

  /** `capacity` 0 turns the cache off (nothing is remembered). */
  constructor(
    private readonly capacity: number,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Taken before a load; handed back to `set` with its result. */
  get generation(): number {
    return this.drops;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The live value, or undefined; synchronous and without I/O. */
  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expires <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Whether a live value is held, without touching its recency. */
  has(key: string): boolean {
    const entry = this.entries.get(key);
    return entry !== undefined && entry.expires > this.now();
  }

  /** Remembers `value` unless the cache is off or something was dropped since `generation`. */
  set(key: string, value: T, generation = this.drops): void {
    if (this.capacity === 0 || generation !== this.drops) return;
    this.entries.delete(key);
    if (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, expires: this.now() + this.ttlMs });
  }

  delete(key: string): void {
    this.drops++;
    this.entries.delete(key);
  }

  clear(): void {
    this.drops++;
    this.entries.clear();
  }
}
