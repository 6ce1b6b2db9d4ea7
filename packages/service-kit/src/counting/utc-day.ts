const DAY_MS = 86_400_000;

/** The UTC day of `ms` as `YYYY-MM-DD`: the day a count is kept under. */
export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The first millisecond of the UTC day after the one holding `ms`. */
export const nextUtcDayStart = (ms: number): number => (Math.floor(ms / DAY_MS) + 1) * DAY_MS;

/** The first of the `count` UTC days ending with the day of `ms` (`count` 1: that day). */
export const firstOfLastDays = (ms: number, count: number): string =>
  utcDay((Math.floor(ms / DAY_MS) - (count - 1)) * DAY_MS);
