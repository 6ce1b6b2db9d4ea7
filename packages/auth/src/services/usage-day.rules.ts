const DAY_MS = 86_400_000;

/** The UTC day of `ms` as `YYYY-MM-DD`. */
export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The first millisecond of the UTC day after the one holding `ms`. */
export const nextUtcDayStart = (ms: number): number => (Math.floor(ms / DAY_MS) + 1) * DAY_MS;

/** The `count` UTC days ending with the day of `ms`, oldest first. */
export const lastUtcDays = (ms: number, count: number): string[] => {
  const today = Math.floor(ms / DAY_MS);
  return Array.from({ length: count }, (_, i) => utcDay((today - (count - 1) + i) * DAY_MS));
};
