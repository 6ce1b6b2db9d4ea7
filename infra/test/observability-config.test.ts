import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/*
 * infra/observability as shipped (docs/observability.md): the rules pass promtool's checks and
 * unit tests, the scrape config matches the compose file's metrics ports, the dashboard is one a
 * Grafana provisions, and the compose profile wires them. The e2e test `observability.test.ts`
 * runs a real Prometheus with them against the running services.
 */

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dir = join(repoRoot, 'infra/observability');
const RULE_FILES = ['pawlink-recording.rules.yml', 'pawlink-alerts.rules.yml'].map((file) =>
  join(dir, 'prometheus/rules', file),
);

function run(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): { status: number | null; output: string } {
  const res = spawnSync(cmd, args, { cwd: repoRoot, encoding: 'utf8', env });
  return { status: res.status, output: `${res.error?.message ?? ''}${res.stdout}${res.stderr}` };
}

interface Panel {
  id: number;
  type: string;
  title: string;
  description?: string;
  datasource?: { type: string; uid: string };
  targets?: Array<{ refId: string; expr: string; datasource?: { uid: string } }>;
}

const dashboard = JSON.parse(readFileSync(join(dir, 'grafana/dashboards/pawlink.json'), 'utf8')) as {
  uid: string;
  title: string;
  panels: Panel[];
  templating: { list: Array<{ name: string; type: string; query: unknown }> };
};

describe('Prometheus rules', () => {
  it('pass `promtool check rules`', () => {
    const res = run('promtool', ['check', 'rules', ...RULE_FILES]);
    expect(res.output).not.toContain('FAILED');
    expect(res.status, res.output).toBe(0);
    expect(res.output).toContain('SUCCESS: 10 rules found');
    expect(res.output).toContain('SUCCESS: 8 rules found');
  });

  it('pass their unit tests (`promtool test rules`): each alert fires on its series and stays quiet otherwise', () => {
    const res = run('promtool', ['test', 'rules', join(dir, 'prometheus/tests/pawlink-rules.test.yml')]);
    expect(res.status, res.output).toBe(0);
    expect(res.output).toContain('SUCCESS');
  });

  it('have a unit test for every alert, and a meaning and an action for each in docs/observability.md', () => {
    const alerts = (
      parse(readFileSync(RULE_FILES[1]!, 'utf8')) as { groups: Array<{ rules: Array<{ alert: string }> }> }
    ).groups.flatMap((group) => group.rules.map((rule) => rule.alert));
    const tests = readFileSync(join(dir, 'prometheus/tests/pawlink-rules.test.yml'), 'utf8');
    const doc = readFileSync(join(repoRoot, 'docs/observability.md'), 'utf8');
    for (const alert of alerts) {
      expect(tests, alert).toContain(`alertname: ${alert}`);
      expect(doc, alert).toMatch(new RegExp(`^#### ${alert}$`, 'm'));
    }
  });
});

describe('the scrape config', () => {
  it('passes `promtool check config` with the rules it loads', () => {
    const temp = mkdtempSync(join(tmpdir(), 'pawlink-prometheus-'));
    try {
      // As the container mounts it: the rules directory beside the config.
      const config = readFileSync(join(dir, 'prometheus/prometheus.yml'), 'utf8').replace(
        '/etc/prometheus/rules/*.rules.yml',
        join(dir, 'prometheus/rules/*.rules.yml'),
      );
      writeFileSync(join(temp, 'prometheus.yml'), config);
      const res = run('promtool', ['check', 'config', join(temp, 'prometheus.yml')]);
      expect(res.status, res.output).toBe(0);
      expect(res.output).toContain('SUCCESS: 10 rules found');
      expect(res.output).toContain('SUCCESS: 8 rules found');
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  });

  it('scrapes the metrics ports the compose file sets, every worker replica by name', () => {
    const config = parse(readFileSync(join(dir, 'prometheus/prometheus.yml'), 'utf8')) as {
      scrape_configs: Array<{
        job_name: string;
        static_configs?: Array<{ targets: string[] }>;
        dns_sd_configs?: Array<{ names: string[]; port: number }>;
      }>;
    };
    const job = (name: string) => config.scrape_configs.find((entry) => entry.job_name === name);
    expect(job('pawlink')?.static_configs?.[0]?.targets).toEqual(['shortener:9101', 'images:9102', 'thumbs:9103']);
    expect(job('pawlink-worker')?.dns_sd_configs?.[0]).toMatchObject({ names: ['thumbs-worker'], port: 9104 });
  });
});

describe('the Grafana dashboard', () => {
  const panels = dashboard.panels.filter((panel) => panel.type !== 'row');

  it('has panels with unique ids, a description and at least one query each, on the datasource variable', () => {
    expect(new Set(dashboard.panels.map((panel) => panel.id)).size).toBe(dashboard.panels.length);
    expect(panels.length).toBeGreaterThanOrEqual(15);
    for (const panel of panels) {
      expect(panel.description, panel.title).toBeTruthy();
      expect(panel.datasource, panel.title).toEqual({ type: 'prometheus', uid: '${datasource}' });
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets ?? []) expect(target.expr.trim(), panel.title).not.toBe('');
    }
    expect(dashboard.templating.list.map((variable) => variable.name)).toEqual(['datasource', 'service']);
  });

  it('shows what the issue asks for', () => {
    const exprs = panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr)).join('\n');
    for (const metric of [
      'http_requests_total',
      'http_request_duration_seconds_bucket',
      'thumbs_queue_jobs',
      'thumbs_job_wait_seconds_bucket',
      'thumbs_job_duration_seconds_bucket',
      'thumbs_callback_attempts_total',
      'thumbs_callback_deliveries_total',
      'pawlink_rate_limit_refusals_total',
      'pawlink_dependency_up',
      'thumbs_jobs_stalled_total',
    ])
      expect(exprs, metric).toContain(metric);
    expect(exprs).toContain('histogram_quantile(0.5, sum by (service, route, le)');
    expect(exprs).toContain('histogram_quantile(0.99, sum by (service, route, le)');
  });
});

describe('docker compose --profile observability', () => {
  /** `docker-compose config` with the profile (or without it), exactly these variables, not the repository's .env. */
  const composeConfig = (...args: string[]) => composeConfigOf(['--profile', 'observability'], ...args);
  const composeConfigOf = (profile: string[], ...args: string[]) => {
    const temp = mkdtempSync(join(tmpdir(), 'pawlink-compose-'));
    try {
      writeFileSync(join(temp, 'empty.env'), '');
      return run(
        'docker-compose',
        ['--env-file', join(temp, 'empty.env'), '-f', 'docker-compose.yml', ...profile, 'config', ...args],
        { PATH: process.env.PATH, DB_PASSWORD: 'app-secret', DB_ROOT_PASSWORD: 'root-secret' },
      );
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  };

  it('is valid for docker-compose config', () => {
    const res = composeConfig('-q');
    expect(res.output).toBe('');
    expect(res.status).toBe(0);
  });

  it('adds Prometheus with the shipped config and rules, and Grafana with the dashboard provisioned, on loopback only', () => {
    const doc = parse(composeConfig().output) as {
      services: Record<
        string,
        {
          volumes?: Array<string | { source: string; target: string }>;
          ports?: unknown[];
          profiles?: string[];
          environment?: Record<string, string>;
          expose?: unknown[];
        }
      >;
    };
    const mounts = (name: string): Record<string, string> =>
      Object.fromEntries(
        (doc.services[name]?.volumes ?? []).map((volume) =>
          typeof volume === 'string' ? [volume.split(':')[1]!, volume.split(':')[0]!] : [volume.target, volume.source],
        ),
      );
    const prometheus = mounts('prometheus');
    expect(prometheus['/etc/prometheus/prometheus.yml']).toBe(join(dir, 'prometheus/prometheus.yml'));
    expect(prometheus['/etc/prometheus/rules']).toBe(join(dir, 'prometheus/rules'));
    const grafana = mounts('grafana');
    expect(grafana['/etc/grafana/provisioning']).toBe(join(dir, 'grafana/provisioning'));
    expect(grafana['/etc/grafana/dashboards']).toBe(join(dir, 'grafana/dashboards'));
    const provider = parse(readFileSync(join(dir, 'grafana/provisioning/dashboards/pawlink.yml'), 'utf8')) as {
      providers: Array<{ options: { path: string } }>;
    };
    expect(provider.providers[0]?.options.path).toBe('/etc/grafana/dashboards');
    const datasource = parse(readFileSync(join(dir, 'grafana/provisioning/datasources/prometheus.yml'), 'utf8')) as {
      datasources: Array<{ type: string; url: string }>;
    };
    expect(datasource.datasources[0]).toMatchObject({ type: 'prometheus', url: 'http://prometheus:9090' });
    for (const name of ['prometheus', 'grafana']) {
      expect(doc.services[name]?.profiles, name).toEqual(['observability']);
      // Only with the profile (docker-compose 1.29's `config --services` lists every service, so this is the check).
      for (const port of doc.services[name]?.ports ?? []) expect(String(port), name).toMatch(/^127\.0\.0\.1:/);
      expect(doc.services[name]?.ports, name).toHaveLength(1);
    }
  });

  it('gives each worker replica its metrics listener on the compose network, never a published port', () => {
    const worker = (
      parse(composeConfig().output) as {
        services: Record<string, { environment?: Record<string, string>; expose?: unknown[]; ports?: unknown[] }>;
      }
    ).services['thumbs-worker'];
    expect(worker?.environment).toMatchObject({ WORKER_METRICS_PORT: '9104', METRICS_HOST: '0.0.0.0' });
    expect((worker?.expose ?? []).map(String)).toContain('9104');
    expect(worker?.ports).toBeUndefined();
  });
});
