import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { TEMP_FILE_NAME } from './atomic-file.js';

/**
 * Removes the entries of `dir` whose names match `name` and that were last changed over
 * `olderThanMs` ago (files or whole directories). Younger ones may belong to a write or a job in
 * progress and are left alone. A missing directory has nothing to remove. Returns how many went.
 */
export async function removeStaleEntries(
  dir: string,
  name: RegExp,
  olderThanMs: number,
  now = Date.now(),
): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const entry of names) {
    if (!name.test(entry)) continue;
    const target = path.join(dir, entry);
    try {
      if (now - (await stat(target)).mtimeMs > olderThanMs) {
        await rm(target, { recursive: true, force: true });
        removed++;
      }
    } catch {
      // gone already: another process swept it, or its write finished
    }
  }
  return removed;
}

/** Removes the temporary files that interrupted atomic writes (a crash, a kill) left in `dir`. */
export function removeStaleTempFiles(dir: string, olderThanMs: number, now = Date.now()): Promise<number> {
  return removeStaleEntries(dir, TEMP_FILE_NAME, olderThanMs, now);
}
