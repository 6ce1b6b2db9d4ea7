/** A create the shortener acknowledged (201/200): this code must redirect to this url for good. */
export interface AcknowledgedCreate {
  code: string;
  url: string;
  at: number;
}

/**
 * The acknowledged creates, and which codes the running shortener process has redirected already
 * (its in-process cache holds those, so they must keep redirecting through any outage).
 */
export class CreatedCodes {
  readonly acknowledged: AcknowledgedCreate[] = [];
  private readonly urlByCode = new Map<string, string>();
  private warm = new Set<string>();
  /** The same codes as `warm`, for picking one at random. */
  private warmList: string[] = [];
  private processStartedAt = 0;

  add(code: string, url: string, at: number): void {
    this.acknowledged.push({ code, url, at });
    this.urlByCode.set(code, url);
  }

  urlOf(code: string): string | undefined {
    return this.urlByCode.get(code);
  }

  random(): AcknowledgedCreate | undefined {
    if (this.acknowledged.length === 0) return undefined;
    return this.acknowledged[Math.floor(Math.random() * this.acknowledged.length)];
  }

  /** A code the running shortener has redirected already (undefined before the first). */
  randomWarm(): AcknowledgedCreate | undefined {
    if (this.warmList.length === 0) return undefined;
    const code = this.warmList[Math.floor(Math.random() * this.warmList.length)]!;
    return { code, url: this.urlByCode.get(code)!, at: 0 };
  }

  isWarm(code: string): boolean {
    return this.warm.has(code);
  }

  /** A 302 for `code` to a request sent at `sentAt`; one the previous process answered warms nothing. */
  redirected(code: string, sentAt: number): void {
    if (sentAt >= this.processStartedAt && !this.warm.has(code)) {
      this.warm.add(code);
      this.warmList.push(code);
    }
  }

  /**
   * The shortener dropped its in-process cache at `at`: a new process, or its invalidation
   * subscriber reconnected after a Redis outage (it may have missed invalidations; ADR 0006).
   */
  cacheDropped(at: number): void {
    this.warm = new Set();
    this.warmList = [];
    this.processStartedAt = at;
  }
}
