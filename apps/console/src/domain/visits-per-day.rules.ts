/** The UTC days from `days - 1` days ago to today, oldest first. */
export function lastDays(days: number, today = new Date()): string[] {
  const out: string[] = [];
  const end = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  for (let i = days - 1; i >= 0; i -= 1) out.push(new Date(end - i * 86_400_000).toISOString().slice(0, 10));
  return out;
}
