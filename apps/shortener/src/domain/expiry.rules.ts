import { MAX_VISITS_LIMIT, type ExpiryReason } from '@pawlink/contracts';
import { ApiError } from '@pawlink/service-kit';

/** What the expiry of an entry depends on. */
export interface ExpiryState {
  expiresAt: Date | null;
  maxVisits: number | null;
  maxVisitsUsed: number;
  maxVisitsReachedAt: Date | null;
}

export interface Expired {
  reason: ExpiryReason;
  /** When it stopped redirecting. */
  at: Date;
}

/** Why and since when an entry no longer redirects at `now`; null while it does. The earlier cause wins. */
export function expiryOf(entry: ExpiryState, now: Date): Expired | null {
  const causes: Expired[] = [];
  if (entry.expiresAt !== null && entry.expiresAt.getTime() <= now.getTime())
    causes.push({ reason: 'expiresAt', at: entry.expiresAt });
  if (entry.maxVisits !== null && entry.maxVisitsUsed >= entry.maxVisits)
    causes.push({ reason: 'maxVisits', at: entry.maxVisitsReachedAt ?? now });
  causes.sort((a, b) => a.at.getTime() - b.at.getTime());
  return causes[0] ?? null;
}

/**
 * An ISO 8601 date and time with a zone (`Z` or `±hh:mm`): without one, a time means different
 * instants to different servers. Seconds and fractions are optional; the year has four digits.
 */
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/i;

/** `expiresAt` as a Date: a well-formed ISO date-time with a zone, strictly after `now` (1081 otherwise). */
export function parseExpiresAt(value: unknown, now: Date): Date {
  const match = typeof value === 'string' ? ISO_DATE_TIME.exec(value) : null;
  if (!match) throw new ApiError('INVALID_EXPIRES_AT');
  const [year, month, day, hour, minute, second = 0, zoneHour = 0, zoneMinute = 0] = match
    .slice(1)
    .map((part) => (part === undefined ? undefined : Number(part)));
  // Date.parse rolls 2030-02-31 over into March and 24:00 into the next day: every field must exist as written.
  const daysInMonth = new Date(Date.UTC(year!, month, 0)).getUTCDate();
  const date = new Date(value as string);
  if (
    month! < 1 ||
    month! > 12 ||
    day! < 1 ||
    day! > daysInMonth ||
    hour! > 23 ||
    minute! > 59 ||
    second > 59 ||
    zoneHour > 23 ||
    zoneMinute > 59 ||
    Number.isNaN(date.getTime())
  ) {
    throw new ApiError('INVALID_EXPIRES_AT');
  }
  if (date.getTime() <= now.getTime())
    throw new ApiError('INVALID_EXPIRES_AT', {
      message: 'The provided expiresAt is invalid: it must be in the future.',
    });
  return date;
}

/**
 * `maxVisits`: a whole number from 1 to 2^31-1, as a JSON number; a decimal string only where the
 * body has no numbers (`digits`: a form body). 1082 otherwise: a JSON string is a wrong type, not a number.
 */
export function parseMaxVisits(value: unknown, { digits = false }: { digits?: boolean } = {}): number {
  const number =
    typeof value === 'number'
      ? value
      : digits && typeof value === 'string' && /^\d{1,10}$/.test(value)
        ? Number(value)
        : Number.NaN;
  if (!Number.isInteger(number) || number < 1 || number > MAX_VISITS_LIMIT) throw new ApiError('INVALID_MAX_VISITS');
  return number;
}
