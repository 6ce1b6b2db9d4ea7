import type mysql from 'mysql2/promise';
import type { GaleraNode } from './galera-node.js';
import type { Link } from './mixed-load.js';

/** The schema of `table` under `prefix` on `connection`'s node. */
async function schemaOf(connection: mysql.Connection, prefix: string, table: string): Promise<string> {
  const [rows] = await connection.query<mysql.RowDataPacket[]>(
    'SELECT table_schema AS name FROM information_schema.tables WHERE table_name = ? AND table_schema LIKE ?',
    [table, `${prefix}%`],
  );
  if (rows.length !== 1) throw new Error(`expected one schema with ${table} under ${prefix}, found ${rows.length}`);
  return String(rows[0]!.name);
}

/** code → url of every short link on one node, read from that node directly (not through HAProxy). */
export async function linksOnNode(node: GaleraNode, prefix: string): Promise<Map<string, string>> {
  const connection = await node.connect();
  try {
    const schema = await schemaOf(connection, prefix, 'short_urls');
    const [rows] = await connection.query<mysql.RowDataPacket[]>(`SELECT code, url FROM \`${schema}\`.short_urls`);
    return new Map(rows.map((row) => [String(row.code), String(row.url)]));
  } finally {
    await connection.end();
  }
}

/** code → visits stored in MySQL (`short_url_visits`, every day) of every short link on one node, read from it directly. */
export async function visitsOnNode(node: GaleraNode, prefix: string): Promise<Map<string, number>> {
  const connection = await node.connect();
  try {
    const schema = await schemaOf(connection, prefix, 'short_url_visits');
    const [rows] = await connection.query<mysql.RowDataPacket[]>(
      `SELECT s.code AS code, SUM(v.visits) AS visits FROM \`${schema}\`.short_urls s
         JOIN \`${schema}\`.short_url_visits v ON v.short_url_pos = s.pos GROUP BY s.code`,
    );
    return new Map(rows.map((row) => [String(row.code), Number(row.visits)]));
  } finally {
    await connection.end();
  }
}

/**
 * What one node's visit counts (`stored`) get wrong about the links that were not deleted: fewer
 * than the visits answered 302 (lost) or more than those plus the visits that got no answer
 * (counted twice).
 */
export function miscountedVisits(links: Link[], stored: Map<string, number>): string[] {
  const wrong: string[] = [];
  for (const link of links) {
    if (link.deleted !== 'no') continue;
    const visits = stored.get(link.code) ?? 0;
    if (visits < link.visits) wrong.push(`${link.code}: ${visits} visits stored, ${link.visits} answered 302`);
    else if (visits > link.visits + link.maybeVisits)
      wrong.push(`${link.code}: ${visits} visits stored, at most ${link.visits + link.maybeVisits} sent`);
  }
  return wrong;
}

/** Number of images on one node, read from that node directly. */
export async function imageCountOnNode(node: GaleraNode, prefix: string): Promise<number> {
  const connection = await node.connect();
  try {
    const schema = await schemaOf(connection, prefix, 'images');
    const [rows] = await connection.query<mysql.RowDataPacket[]>(`SELECT COUNT(*) AS n FROM \`${schema}\`.images`);
    return Number(rows[0]!.n);
  } finally {
    await connection.end();
  }
}

/** What an acknowledged write promised that `stored` (one node's links) does not hold. */
export function lostWrites(links: Link[], stored: Map<string, string>): string[] {
  const lost: string[] = [];
  for (const link of links) {
    const url = stored.get(link.code);
    if (link.deleted === 'yes') {
      if (url !== undefined) lost.push(`${link.code}: deleted (204) but still there`);
    } else if (url === undefined) {
      if (link.deleted === 'no') lost.push(`${link.code}: created (201) but missing`);
    } else if (url !== link.url && !link.maybeUrls.includes(url)) {
      lost.push(`${link.code}: ${url}, expected ${link.url}`);
    }
  }
  return lost;
}
