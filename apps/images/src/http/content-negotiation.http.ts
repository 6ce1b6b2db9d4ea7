interface AcceptEntry {
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(header: string): AcceptEntry[] {
  const entries: AcceptEntry[] = [];
  for (const part of header.split(',')) {
    const [range, ...params] = part.trim().split(';');
    const [type, subtype] = (range ?? '').trim().toLowerCase().split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const param of params) {
      const [name, value] = param.trim().split('=');
      if (name?.trim().toLowerCase() === 'q') {
        const parsed = Number(value);
        q = Number.isFinite(parsed) ? Math.min(1, Math.max(0, parsed)) : 0;
      }
    }
    entries.push({ type, subtype, q });
  }
  return entries;
}

/** The quality the header gives a type family: the most specific matching range wins (RFC 9110). */
function quality(entries: AcceptEntry[], type: string, subtype: string | undefined): number {
  let best = 0;
  let bestSpecificity = -1;
  for (const entry of entries) {
    const typeMatches = entry.type === '*' || entry.type === type;
    const subtypeMatches = entry.subtype === '*' || subtype === undefined || entry.subtype === subtype;
    if (!typeMatches || !subtypeMatches) continue;
    const specificity = (entry.type === '*' ? 0 : 1) + (entry.subtype === '*' ? 0 : 1);
    if (specificity > bestSpecificity || (specificity === bestSpecificity && entry.q > best)) {
      best = entry.q;
      bestSpecificity = specificity;
    }
  }
  return best;
}

/**
 * True when the client prefers an image over JSON: some image type is ranked strictly above both
 * JSON and HTML. `*\/*`, no header, and browsers' navigation defaults (HTML first) stay JSON;
 * `image/*`, `image/png` and an `<img>` request's header choose the bytes.
 */
export function prefersImage(header: string | undefined): boolean {
  if (header === undefined || header.trim() === '') return false;
  const entries = parseAccept(header);
  const image = Math.max(0, ...entries.filter((e) => e.type === 'image').map((e) => e.q));
  if (image === 0) return false;
  return image > quality(entries, 'application', 'json') && image > quality(entries, 'text', 'html');
}
