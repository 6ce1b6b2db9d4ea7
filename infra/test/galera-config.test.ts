import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/*
 * The Galera topology as shipped: infra/galera's node settings and HAProxy config, and
 * docker-compose.yml's `galera` profile that runs them. The galera/ suite runs the same files on
 * real nodes; this checks them statically (no Docker engine in CI).
 */

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const galeraDir = join(repoRoot, 'infra/galera');

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): { status: number | null; output: string } {
  const res = spawnSync(cmd, args, { cwd: repoRoot, encoding: 'utf8', env });
  return { status: res.status, output: `${res.error?.message ?? ''}${res.stdout}${res.stderr}` };
}

/** `docker-compose config` with the profile, exactly these variables, not the repository's .env. */
function composeConfig(...args: string[]): { status: number | null; output: string } {
  const temp = mkdtempSync(join(tmpdir(), 'pawlink-compose-'));
  try {
    writeFileSync(join(temp, 'empty.env'), '');
    return run(
      'docker-compose',
      ['--env-file', join(temp, 'empty.env'), '-f', 'docker-compose.yml', '--profile', 'galera', 'config', ...args],
      { PATH: process.env.PATH, DB_PASSWORD: 'app-secret', DB_ROOT_PASSWORD: 'root-secret' },
    );
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

type Volume = string | { source: string; target: string };
interface Service {
  image?: string;
  profiles?: string[];
  volumes?: Volume[];
  network_mode?: string;
  environment?: Record<string, string>;
  command?: string[];
}

const mounts = (service: Service | undefined): Record<string, string> =>
  Object.fromEntries(
    (service?.volumes ?? []).map((volume) =>
      typeof volume === 'string' ? [volume.split(':')[1]!, volume.split(':')[0]!] : [volume.target, volume.source],
    ),
  );

describe('infra/galera', () => {
  const cnf = readFileSync(join(galeraDir, 'galera.cnf'), 'utf8');

  it('configures every node as Galera needs it: row events, interleaved auto-increment locks, InnoDB only', () => {
    expect(cnf).toMatch(/^binlog_format=ROW$/m);
    expect(cnf).toMatch(/^innodb_autoinc_lock_mode=2$/m);
    expect(cnf).toMatch(/^enforce_storage_engine=InnoDB$/m);
    expect(cnf).toMatch(/^wsrep_on=ON$/m);
    expect(cnf).toMatch(/^wsrep_provider=\/usr\/lib\/galera\/libgalera_smm\.so$/m);
    expect(cnf).toMatch(/^wsrep_sst_method=rsync$/m);
  });

  it('detects a dead node after 2 s, with keepalives under a third of that, and leaves the other timeouts alone', () => {
    const options = /^wsrep_provider_options="([^"]*)"$/m.exec(cnf)?.[1]?.split(';') ?? [];
    expect(options).toContain('evs.suspect_timeout=PT2S');
    expect(options).toContain('evs.keepalive_period=PT0.5S');
    expect(options.filter((option) => /^evs\.(inactive|install)_timeout=/.test(option))).toEqual([]);
  });

  it('has an HAProxy config that haproxy -c accepts, with a writer port on one node at a time and a round-robin reader port', () => {
    const cfg = readFileSync(join(galeraDir, 'haproxy.cfg'), 'utf8');
    const section = (name: string) => cfg.split(/^listen /m).find((part) => part.startsWith(name)) ?? '';
    expect(section('galera-writer')).toMatch(/^\s+balance first$/m);
    expect(section('galera-writer')).toMatch(/uri \/writer$/m);
    expect(section('galera-reader')).toMatch(/^\s+balance roundrobin$/m);
    expect(section('galera-reader')).toMatch(/uri \/reader$/m);
    for (const name of ['galera-writer', 'galera-reader'])
      expect(section(name).match(/^\s+server galera\d .* check port /gm), name).toHaveLength(3);
    expect(cfg).toMatch(/on-marked-down shutdown-sessions/);
    const haproxy = ['/usr/sbin/haproxy', '/usr/bin/haproxy'].find((path) => existsSync(path));
    expect(haproxy, 'haproxy is not installed: scripts/bootstrap.sh installs it').toBeDefined();
    // The compose defaults name hosts that only resolve on the compose network.
    const res = run(haproxy!, ['-c', '-f', join(galeraDir, 'haproxy.cfg')], {
      PATH: process.env.PATH,
      GALERA1_HOST: '127.0.0.1',
      GALERA2_HOST: '127.0.0.1',
      GALERA3_HOST: '127.0.0.1',
    });
    expect(res.output).toContain('Configuration file is valid');
    expect(res.status).toBe(0);
  });
});

describe('docker compose --profile galera', () => {
  it('is valid for docker-compose config', () => {
    const res = composeConfig('-q');
    expect(res.output).toBe('');
    expect(res.status).toBe(0);
  });

  it('runs three nodes with the shipped settings, a health agent in each node, and HAProxy with the shipped config', () => {
    const doc = parse(composeConfig().output) as { services: Record<string, Service> };
    for (const n of [1, 2, 3]) {
      const node = doc.services[`galera${n}`];
      expect(node?.profiles).toEqual(['galera']);
      expect(node?.image).toMatch(/^mariadb:10\.11/);
      expect(mounts(node)['/etc/mysql/conf.d/60-pawlink-galera.cnf']).toBe(join(galeraDir, 'galera.cnf'));
      expect(mounts(node)['/etc/pawlink/compose-node.sh']).toBe(join(galeraDir, 'compose-node.sh'));
      expect(node?.command).toContain(`--wsrep-node-name=galera${n}`);
      const agent = doc.services[`galera-health-${n}`];
      expect(agent?.network_mode).toBe(`service:galera${n}`);
      expect(agent?.environment?.NODE_ADDRESS).toBe('127.0.0.1:3306');
      expect(agent?.environment?.PEER_ADDRESSES?.split(',').sort()).toEqual(
        [1, 2, 3].filter((other) => other !== n).map((other) => `galera${other}:3306`),
      );
    }
    // Only the first node may start a new cluster; the services' user is created there once.
    expect(doc.services.galera1?.environment?.GALERA_BOOTSTRAP).toBe('1');
    expect(doc.services.galera2?.environment?.GALERA_BOOTSTRAP).toBe('0');
    expect(doc.services.galera3?.environment?.GALERA_BOOTSTRAP).toBe('0');
    expect(mounts(doc.services.galera1)['/docker-entrypoint-initdb.d']).toBe(join(repoRoot, 'infra/mysql/initdb'));
    expect(mounts(doc.services['galera-haproxy'])['/usr/local/etc/haproxy/haproxy.cfg']).toBe(
      join(galeraDir, 'haproxy.cfg'),
    );
  });

  it('bootstraps only a node without cluster state or the last one to stop (safe_to_bootstrap: 1)', () => {
    const script = readFileSync(join(galeraDir, 'compose-node.sh'), 'utf8');
    expect(script).toMatch(/GALERA_BOOTSTRAP:-0\}" == 1/);
    expect(script).toMatch(/safe_to_bootstrap: \*1/);
    expect(run('bash', ['-n', join(galeraDir, 'compose-node.sh')], { PATH: process.env.PATH }).status).toBe(0);
  });

  it('leaves the services on the one MySQL unless .env points them at HAProxy', () => {
    const doc = parse(composeConfig().output) as { services: Record<string, Service> };
    expect(doc.services.shortener?.environment).toMatchObject({ DB_HOST: 'mysql', DB_PORT: '3306', DB_READ_HOST: '' });
  });
});
