/**
 * Ceiling of `POST /create`: node:http, the JSON body read, a random code and management code,
 * and ONE MySQL INSERT (mysql2 pool of the shortener's size) of a `short_urls` row of the same
 * shape, answered 201 with the record the shortener answers.
 */
import { createHash, randomBytes } from 'node:crypto';
import { DEFAULT_CREDIT } from '@pawlink/contracts';
import { ceilingConfig, sendJson, serveCeiling } from '@pawlink/bench/ceiling';
import { ceilingRateLimit, type CeilingRateLimitConfig } from '@pawlink/bench/ceiling-rate-limit';
import { Redis } from 'ioredis';
import mysql from 'mysql2/promise';
import { randomCode } from '../src/domain/short-code.rules.js';

/** What bench/main.ts gives this ceiling. */
export interface CreateCeilingConfig {
  mysql: { host: string; port: number; user: string; password: string; database: string };
  /** SHORTENER_URL, for `fullURL`. */
  baseUrl: string;
  /** The shortener's pool size. */
  poolSize: number;
  /** Also counts each request in rate-limit windows (the contract's I/O for the endpoint), while the INSERT runs. */
  rateLimit?: CeilingRateLimitConfig & { redisUrl: string };
}

const config = ceilingConfig<CreateCeilingConfig>();
const pool = mysql.createPool({
  ...config.mysql,
  connectionLimit: config.poolSize,
  charset: 'utf8mb4_unicode_ci',
  timezone: 'Z',
});
const redis = config.rateLimit ? new Redis(config.rateLimit.redisUrl, { enableAutoPipelining: true }) : undefined;
const countRequest = redis && config.rateLimit ? ceilingRateLimit(redis, config.rateLimit) : undefined;

async function readJson(req: AsyncIterable<Buffer>): Promise<{ url: string; credit?: string }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as { url: string; credit?: string };
}

serveCeiling(
  async (req, res) => {
    try {
      const { url, credit = DEFAULT_CREDIT } = await readJson(req);
      const code = randomCode();
      const managementCode = randomBytes(32).toString('base64url');
      const createdAt = new Date();
      const [[result]] = await Promise.all([
        pool.query<mysql.ResultSetHeader>(
          'INSERT INTO short_urls (code, url, shared_url_hash, credit, management_code_hash, created_at, modified_at, url_changed_at) VALUES (?, ?, NULL, ?, ?, ?, NULL, NULL)',
          [code, url, credit, createHash('sha256').update(managementCode).digest('hex'), createdAt],
        ),
        countRequest?.(req, res),
      ]);
      const record = {
        code,
        createdAt: createdAt.toISOString(),
        modifiedAt: null,
        url,
        pos: result.insertId,
        credit,
        fullURL: `${config.baseUrl}/${code}`,
        expiresAt: null,
        maxVisits: null,
        // what a create without a password, rules or tags answers (issue 38)
        protected: false,
        rules: [],
        tags: [],
      };
      sendJson(res, 201, { success: true, data: { ...record, managementCode } });
    } catch (error) {
      sendJson(res, 500, { success: false, error: (error as Error).message, code: 0 });
    }
  },
  () => Promise.all([pool.end(), redis?.quit()]),
  { expressRoute: '/create', expressMethod: 'post' },
);
