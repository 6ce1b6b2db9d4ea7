import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * "Zero cost when off": a fresh node (vitest itself loads @opentelemetry/api) starts telemetry as
 * an entry point does, from the build, and reports every @opentelemetry module it resolved.
 */
const KIT = fileURLToPath(new URL('../..', import.meta.url));
const PROBE = `
import { registerHooks } from 'node:module';
const loaded = new Set();
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    if (resolved.url.includes('/@opentelemetry/')) loaded.add(resolved.url.replace(/.*\\/@opentelemetry\\/([^/]+)\\/.*/, '$1'));
    return resolved;
  },
});
const { startTelemetry } = await import('./dist/telemetry/index.js');
await startTelemetry('probe');
process.stdout.write(JSON.stringify([...loaded].sort()) + '\\n');
process.exit(0);
`;

function opentelemetryModulesLoaded(env: Record<string, string>): string[] {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', PROBE], {
    cwd: KIT,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as string[];
}

describe('startTelemetry', () => {
  it('loads no @opentelemetry module when the OTEL_* variables do not ask for traces', () => {
    expect(opentelemetryModulesLoaded({})).toEqual([]);
    expect(opentelemetryModulesLoaded({ OTEL_TRACES_EXPORTER: 'none', OTEL_SERVICE_NAME: 'x' })).toEqual([]);
  });

  it('loads the SDK and the four instrumentations when they do', () => {
    const loaded = opentelemetryModulesLoaded({ OTEL_TRACES_EXPORTER: 'console', OTEL_METRICS_EXPORTER: 'none' });
    expect(loaded).toEqual(
      expect.arrayContaining([
        'sdk-node',
        'instrumentation-http',
        'instrumentation-express',
        'instrumentation-ioredis',
        'instrumentation-mysql2',
      ]),
    );
  });
});
