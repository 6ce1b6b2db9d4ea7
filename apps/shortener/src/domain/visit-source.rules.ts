import Bowser from 'bowser';
import { LocalLru } from '@pawlink/service-kit';

/** The referrer of a visit without a `Referer`, or with one that names no host. */
export const DIRECT = 'direct';
/** A country the database does not know (or a visit counted before the breakdown existed). */
export const UNKNOWN = 'unknown';
/** A browser, OS or device that is none of the named ones (or is not known). */
export const OTHER = 'other';
/** Longest stored value (a host name is at most 253 characters). */
const VALUE_MAX_LENGTH = 255;

/** What a visit's device counts as in `devices`. */
export type Device = 'desktop' | 'mobile' | 'tablet' | 'other';

/** What the batch step learns from a visit's raw user agent. */
export interface AgentSummary {
  browser: string;
  os: string;
  device: Device;
}

/**
 * The host part of a `Referer` as sent (between `://` and the path), or '' without one: the
 * redirect's only work on the header, a few index lookups and no parsing. Case, port and user
 * info are left for normaliseReferrerHost, off the hot path.
 */
export function rawReferrerHost(referer: string | undefined): string {
  if (referer === undefined) return '';
  const scheme = referer.indexOf('://');
  if (scheme === -1) return '';
  const start = scheme + 3;
  let end = referer.length;
  for (let i = start; i < end; i++) {
    const c = referer.charCodeAt(i);
    if (c === 47 /* / */ || c === 63 /* ? */ || c === 35 /* # */) end = i;
  }
  return referer.slice(start, end);
}

/** The referring host as `referrers` shows it: lower case, without port or user info; DIRECT for none or one that does not parse. */
export function normaliseReferrerHost(raw: string): string {
  if (raw === '') return DIRECT;
  let host: string;
  try {
    host = new URL(`http://${raw}/`).hostname;
  } catch {
    return DIRECT;
  }
  return host === '' ? DIRECT : host.toLowerCase().slice(0, VALUE_MAX_LENGTH);
}

/** Bowser's platform type as a `devices` key (TVs, consoles, bots and unknown agents are `other`). */
export function deviceOf(platformType: string | undefined): Device {
  return platformType === 'desktop' || platformType === 'mobile' || platformType === 'tablet' ? platformType : OTHER;
}

const named = (name: string | undefined): string =>
  name === undefined || name === '' ? OTHER : name.slice(0, VALUE_MAX_LENGTH);

/** Browser, OS and device of a user agent (bowser); OTHER for what it cannot name. */
export function summariseAgent(userAgent: string): AgentSummary {
  if (userAgent === '') return { browser: OTHER, os: OTHER, device: OTHER };
  const parser = Bowser.getParser(userAgent);
  return {
    browser: named(parser.getBrowserName()),
    os: named(parser.getOSName()),
    device: deviceOf(parser.getPlatformType()),
  };
}

/** Distinct user agents remembered by AgentSummaries (parsing one costs tens of microseconds). */
const AGENT_MEMO_SIZE = 10_000;
const AGENT_MEMO_TTL_MS = 86_400_000;

/** summariseAgent, memoised in a bounded LRU: user agents repeat a lot. */
export class AgentSummaries {
  private readonly memo = new LocalLru<AgentSummary>(AGENT_MEMO_SIZE, AGENT_MEMO_TTL_MS);

  of(userAgent: string): AgentSummary {
    let summary = this.memo.get(userAgent);
    if (summary === undefined) {
      summary = summariseAgent(userAgent);
      this.memo.set(userAgent, summary);
    }
    return summary;
  }
}
