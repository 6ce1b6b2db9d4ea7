import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

const TEMP_NAME = /^\..+\.[0-9a-f]{12}\.tmp$/;

/**
 * Removes hidden temp files a killed worker left in the thumbnail directory. Only files older
 * than `olderThanMs` go, so another worker's write in progress is never touched.
 */
export async function removeStaleTempFiles(dir: string, olderThanMs: number, now = Date.now()): Promise<number> {
  let removed = 0;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    if (!TEMP_NAME.test(name)) continue;
    const file = path.join(dir, name);
    try {
      if (now - (await stat(file)).mtimeMs > olderThanMs) {
        await rm(file, { force: true });
        removed++;
      }
    } catch {
      // gone already: another worker swept it or its write finished
    }
  }
  return removed;
}
