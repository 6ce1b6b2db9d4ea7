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

  isWarm(code: string): boolean {
    return this.warm.has(code);
  }

  /** A 302 for `code` to a request sent at `sentAt`; one the previous process answered warms nothing. */
  redirected(code: string, sentAt: number): void {
    if (sentAt >= this.processStartedAt) this.warm.add(code);
  }

  /** A new shortener process, up since `at`, starts with an empty cache. */
  shortenerRestarted(at: number): void {
    this.warm = new Set();
    this.processStartedAt = at;
  }
}
