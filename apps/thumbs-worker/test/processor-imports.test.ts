import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const PROCESSOR = fileURLToPath(new URL('../dist/thumbnail-processor.js', import.meta.url));

// Logs every module the loader resolves, so the test sees the processor's whole ESM import graph.
const RESOLVE_LOGGER = `export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  process.stderr.write('resolved ' + resolved.url + '\\n');
  return resolved;
}`;
const REGISTER = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(RESOLVE_LOGGER)}`)});`;

it('the processor thread loads no Express, typeorm or mysql2 (only the light service-kit entries, docs/adr/0007)', async () => {
  const stderr = await new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      [
        '--import',
        `data:text/javascript,${encodeURIComponent(REGISTER)}`,
        '--input-type=module',
        '-e',
        `await import(${JSON.stringify(PROCESSOR)});`,
      ],
      (error, _stdout, err) => {
        if (error) reject(new Error(`${error.message}\n${err}`));
        else resolve(err);
      },
    );
  });
  const loaded = stderr
    .split('\n')
    .filter((line) => line.startsWith('resolved '))
    .map((line) => line.slice('resolved '.length));
  expect(loaded).toContain(new URL(`file://${PROCESSOR}`).href);
  expect(
    loaded.filter((url) =>
      /\/node_modules\/(\.pnpm\/)?(express|typeorm|mysql2|express-validator|@opentelemetry|import-in-the-middle)[@/+]/.test(
        url,
      ),
    ),
  ).toEqual([]);
  // telemetry-hooks is the logger's slot for trace ids: a module with no imports of its own.
  expect(
    loaded.filter(
      (url) =>
        url.includes('/service-kit/dist/') &&
        !/\/service-kit\/dist\/(logger|request-id|redis|telemetry\/telemetry-hooks|files\/[^/]+)\.js$/.test(url),
    ),
  ).toEqual([]);
});
