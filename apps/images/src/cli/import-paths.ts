import type { Stats } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ImportCandidate } from '../services/image-import.service.js';

const errorCode = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

/**
 * Files named on the command line, folders expanded recursively in name order (hidden entries
 * skipped). A named path that does not exist throws, so a typo imports nothing; inside folders,
 * broken symlinks and special files become failed candidates and the rest still imports.
 * Folders are visited once by real path, so a symlink loop ends.
 */
export async function expandPaths(paths: readonly string[], exclude: readonly string[] = []): Promise<ImportCandidate[]> {
  const skip = new Set(exclude.map((p) => path.resolve(p)));
  const seenFolders = new Set<string>();
  const candidates: ImportCandidate[] = [];
  const visit = async (resolved: string, named: boolean): Promise<void> => {
    if (skip.has(resolved)) return;
    let info: Stats;
    try {
      info = await stat(resolved);
    } catch (error) {
      if (named) throw new Error(errorCode(error) === 'ENOENT' ? `${resolved} does not exist.` : `cannot read ${resolved} (${errorCode(error)}).`, { cause: error });
      candidates.push({ file: resolved, problem: `cannot read (${errorCode(error)})` });
      return;
    }
    if (info.isDirectory()) {
      const real = await realpath(resolved);
      if (seenFolders.has(real)) return;
      seenFolders.add(real);
      const before = candidates.length;
      // Hidden files in a folder (.DS_Store, editor swap files) are not candidates; named files always are.
      const entries = (await readdir(resolved)).filter((entry) => !entry.startsWith('.')).sort();
      for (const entry of entries) await visit(path.join(resolved, entry), false);
      if (named && candidates.length === before) candidates.push({ file: resolved, problem: 'no files in this folder' });
    } else if (info.isFile()) {
      candidates.push({ file: resolved });
    } else {
      candidates.push({ file: resolved, problem: 'not a regular file' });
    }
  };
  for (const target of paths) await visit(path.resolve(target), true);
  return candidates;
}
