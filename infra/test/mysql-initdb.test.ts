import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// infra/mysql/initdb/10-pawlink-user.sh, as the mysql image's entrypoint sources it, run against the
// test database server (DB_HOST…, as every test) with a test prefix and user of its own.
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SCRIPT = 'infra/mysql/initdb/10-pawlink-user.sh';
const id = randomBytes(4).toString('hex');
const prefix = `t_${id}_`;
const user = `t_${id}_app`;
const password = `it's a \\ "pass" $word`;

const server = {
  host: process.env.DB_HOST ?? '127.0.0.1',
  port: process.env.DB_PORT ?? '3306',
  user: process.env.DB_USER ?? 'root',
  password: process.env.DB_PASSWORD ?? '',
};
const client = spawnSync('sh', ['-c', 'command -v mariadb || command -v mysql'], { encoding: 'utf8' }).stdout.trim();

/** Runs SQL as `login`; the exit status and what the client printed. */
function sql(login: { user: string; password: string }, statements: string): { ok: boolean; output: string } {
  const res = spawnSync(
    client,
    ['--protocol=TCP', '-h', server.host, '-P', server.port, '-u', login.user, '-N', '-B', '-e', statements],
    {
      encoding: 'utf8',
      env: { ...process.env, MYSQL_PWD: login.password },
    },
  );
  return { ok: res.status === 0, output: `${res.stdout}${res.stderr}` };
}

/** Sources the init script with the entrypoint's docker_process_sql pointed at the test server. */
function runInit(env: Record<string, string>): { status: number | null; output: string } {
  const script = [
    `docker_process_sql() { MYSQL_PWD="$ROOT_PASSWORD" "${client}" --protocol=TCP -h "${server.host}" -P "${server.port}" -u "${server.user}" "$@"; }`,
    `. ${SCRIPT}`,
  ].join('\n');
  const res = spawnSync('bash', ['-c', script], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, ROOT_PASSWORD: server.password, ...env },
  });
  return { status: res.status, output: `${res.stdout}${res.stderr}` };
}

const asApp = { user, password };
const root = { user: server.user, password: server.password };

afterAll(() => {
  sql(
    root,
    `DROP USER IF EXISTS '${user}'@'%'; DROP DATABASE IF EXISTS \`${prefix}auth\`; DROP DATABASE IF EXISTS \`${prefix}shortener\``,
  );
});

describe('the MySQL init script of docker-compose', () => {
  it('refuses root, an empty prefix and a missing password', () => {
    for (const env of [
      { PAWLINK_DB_USER: 'root', PAWLINK_DB_PASSWORD: 'x', PAWLINK_DB_PREFIX: prefix },
      { PAWLINK_DB_USER: user, PAWLINK_DB_PASSWORD: 'x', PAWLINK_DB_PREFIX: '' },
      { PAWLINK_DB_USER: user, PAWLINK_DB_PASSWORD: '', PAWLINK_DB_PREFIX: prefix },
      { PAWLINK_DB_USER: "x'; DROP USER root; --", PAWLINK_DB_PASSWORD: 'x', PAWLINK_DB_PREFIX: prefix },
    ]) {
      const res = runInit(env);
      expect(res.status, JSON.stringify(env)).not.toBe(0);
      expect(res.output).toContain('[pawlink initdb]');
    }
    expect(sql(asApp, 'SELECT 1').ok).toBe(false);
  });

  it('creates a user who may create and use the prefixed schemas, and nothing else', () => {
    const init = runInit({ PAWLINK_DB_USER: user, PAWLINK_DB_PASSWORD: password, PAWLINK_DB_PREFIX: prefix });
    expect(init.output).toContain(`user ${user} may use the schemas ${prefix}*`);
    expect(init.status).toBe(0);

    const work = sql(
      asApp,
      [
        `CREATE DATABASE \`${prefix}auth\``,
        `CREATE TABLE \`${prefix}auth\`.keys_ (id INT PRIMARY KEY, name VARCHAR(20))`,
        `ALTER TABLE \`${prefix}auth\`.keys_ ADD INDEX ix_name (name)`,
        `INSERT INTO \`${prefix}auth\`.keys_ VALUES (1, 'a')`,
        `UPDATE \`${prefix}auth\`.keys_ SET name = 'b'`,
        `SELECT name FROM \`${prefix}auth\`.keys_`,
        `DELETE FROM \`${prefix}auth\`.keys_`,
        `CREATE DATABASE \`${prefix}shortener\``,
      ].join('; '),
    );
    expect(work.output.trim()).toBe('b');
    expect(work.ok).toBe(true);

    // `_` is escaped in the grant: a name that only matches `_` as a wildcard is refused.
    for (const statement of [
      `CREATE DATABASE \`tX${id}_other\``,
      `CREATE DATABASE \`pawlink_${id}\``,
      'SELECT user FROM mysql.user',
      `CREATE USER 't_${id}_other'@'%' IDENTIFIED BY 'x'`,
      `GRANT SELECT ON \`${prefix}auth\`.* TO '${user}'@'%'`,
    ]) {
      expect(sql(asApp, statement).ok, statement).toBe(false);
    }
  });

  it('is sourced by the entrypoint, not executed', () => {
    const mode = spawnSync('git', ['ls-files', '-s', SCRIPT], { cwd: repoRoot, encoding: 'utf8' }).stdout;
    expect(mode.startsWith('100644 ')).toBe(true);
  });
});
