import { CREATED_URL_PREFIX, type Endpoints } from './endpoints.js';
import { HttpClient, loopbackAddresses } from './http-client.js';
import { DB_PREFIX, type FaultSystem } from './fault-system.js';
import type { BookedProcess } from './process-book.js';

/** Runs `work` over `items`, `concurrency` at a time. */
export async function eachLimited<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

export interface LostWrite {
  code: string;
  url: string;
  at: number;
  /** What the redirect answered, and whether MySQL has the row. */
  redirect: string;
  row: 'ok' | 'missing' | 'other url';
}

export interface WriteCheck {
  checked: number;
  lost: LostWrite[];
  /** Rows of the suite's urls that no client was told about (the create timed out or failed, but committed). */
  committedUnacknowledged: number;
}

/** Every acknowledged create: its code still redirects (HTTP) to its url, and its row is in MySQL. */
export async function verifyAcknowledgedWrites(system: FaultSystem, endpoints: Endpoints): Promise<WriteCheck> {
  const acknowledged = endpoints.codes.acknowledged;
  const redirects = new Map<string, string>();
  // Most of these are cold lookups, limited per client IP (shortener.lookup, 300/min): 100 codes per address.
  const clients = loopbackAddresses(2, Math.ceil(acknowledged.length / 100)).map((address) => new HttpClient(address));
  let next = 0;
  await eachLimited(acknowledged, 16, async ({ code, url }) => {
    const { record } = await endpoints.redirect(clients[next++ % clients.length]!, 'final', code, url);
    redirects.set(
      code,
      record.status === 302 && record.wrong === undefined
        ? 'ok'
        : `${record.status ?? record.failure} ${record.wrong ?? ''}`.trim(),
    );
  });
  for (const client of clients) client.close();
  const connection = await system.mariadb.connect();
  const rows = new Map<string, string>();
  let stored = 0;
  try {
    const codes = acknowledged.map((write) => write.code);
    for (let i = 0; i < codes.length; i += 1000) {
      const [found] = await connection.query(
        `SELECT code, url FROM \`${DB_PREFIX}shortener\`.short_urls WHERE code IN (?)`,
        [codes.slice(i, i + 1000)],
      );
      for (const row of found as Array<{ code: string; url: string }>) rows.set(row.code, row.url);
    }
    const [count] = await connection.query(
      `SELECT COUNT(*) AS n FROM \`${DB_PREFIX}shortener\`.short_urls WHERE url LIKE ?`,
      [`${CREATED_URL_PREFIX}%`],
    );
    stored = Number((count as Array<{ n: number }>)[0]?.n ?? 0);
  } finally {
    await connection.end();
  }
  const lost: LostWrite[] = [];
  for (const write of acknowledged) {
    const row = rows.get(write.code);
    const rowState = row === undefined ? 'missing' : row === write.url ? 'ok' : 'other url';
    const redirect = redirects.get(write.code) ?? 'not checked';
    if (redirect !== 'ok' || rowState !== 'ok') lost.push({ ...write, redirect, row: rowState });
  }
  return {
    checked: acknowledged.length,
    lost,
    committedUnacknowledged: stored - new Set(acknowledged.map((write) => write.url)).size,
  };
}

export interface LogViolation {
  process: string;
  lines: number;
  notJson: number;
  examples: string[];
}

/** Every line every process printed parses as a JSON object with a `service` field. */
export function checkJsonLogs(processes: readonly BookedProcess[]): LogViolation[] {
  const violations: LogViolation[] = [];
  for (const { proc } of processes) {
    const bad = proc.lines.filter((line) => {
      try {
        const parsed = JSON.parse(line) as unknown;
        return (
          typeof parsed !== 'object' || parsed === null || typeof (parsed as { service?: unknown }).service !== 'string'
        );
      } catch {
        return true;
      }
    });
    if (bad.length > 0)
      violations.push({
        process: proc.name,
        lines: proc.lines.length,
        notJson: bad.length,
        examples: [...new Set(bad)].slice(0, 3).map((line) => line.slice(0, 160)),
      });
  }
  return violations;
}
