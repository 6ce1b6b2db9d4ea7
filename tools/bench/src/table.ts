/** A Markdown table with padded columns, readable in a terminal and pasteable into docs/benchmarks.md. */
export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    `| ${widths.map((w, i) => (cells[i] ?? '').padEnd(w)).join(' | ')} |`;
  return [line(headers), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)];
}

/** 21866.4 → "21,866". */
export const formatRate = (n: number): string => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '—');

/** Milliseconds with two significant decimals below 10 ms: "0.84 ms", "3.8 ms", "25 ms". */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  return `${ms < 1 ? ms.toFixed(2) : ms < 10 ? ms.toFixed(1) : Math.round(ms).toString()} ms`;
}

export const formatRatio = (n: number | null, suffix = ''): string =>
  n === null || !Number.isFinite(n) ? '—' : `${n.toFixed(2)}${suffix}`;
