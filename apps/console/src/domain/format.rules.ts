/** A UTC time as people read it: `2026-11-28 01:23 UTC`. */
export const utc = (iso: string | null): string => (iso === null ? '—' : `${iso.slice(0, 16).replace('T', ' ')} UTC`);

/** Expiry as the table shows it. */
export function expiry(link: { expiresAt: string | null; maxVisits: number | null }): string {
  const parts: string[] = [];
  if (link.expiresAt !== null) parts.push(utc(link.expiresAt));
  if (link.maxVisits !== null) parts.push(`after ${link.maxVisits} visit${link.maxVisits === 1 ? '' : 's'}`);
  return parts.length > 0 ? parts.join(', ') : 'never';
}

/** A number with thousands separators. */
export const count = (n: number): string => n.toLocaleString('en');
