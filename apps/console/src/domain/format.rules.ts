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

/** Tags as typed (commas or spaces between them) as the API takes them; the API checks each. */
export const tagsFrom = (text: string): string[] =>
  text
    .split(/[\s,]+/)
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');

/** A redirect rule's condition as people read it: `device mobile, country DE`. */
export const ruleCondition = (when: Record<string, unknown>): string =>
  Object.entries(when)
    .map(([field, value]) => `${field} ${Array.isArray(value) ? value.join('/') : JSON.stringify(value)}`)
    .join(', ') || 'always';
