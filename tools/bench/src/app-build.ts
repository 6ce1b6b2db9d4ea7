import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A file of the app's own build (`<app>/dist/<file>`), seen from a benchmark module. A bench is
 * built apart from the app (`<app>/bench/dist/`, with the source it reads), so the service it
 * measures is found from the nearest package.json up, not by a path relative to the bench's output.
 */
export function appBuildFile(benchModuleUrl: string, file: string): string {
  let dir = dirname(fileURLToPath(benchModuleUrl));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(benchModuleUrl)}`);
    dir = parent;
  }
  return join(dir, 'dist', file);
}
