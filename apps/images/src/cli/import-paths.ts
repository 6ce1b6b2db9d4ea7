import type { Stats } from 'node:fs';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ImportCandidate } from '../services/image-import.service.js';

const errorCode = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

/** Whether `target` is `root` or lies below it (both real paths). */
const isWithin = (target: string, root: string): boolean =>
  target === root || target.startsWith(root.endsWith(path.sep) ? root : `${root}${path.sep}`);

/**
 * Files named on the command line, folders expanded recursively in name order. A named path that
 * does not exist throws, so a typo imports nothing; inside folders, broken symlinks and special
 * files become failed candidates and the rest still imports. A symlink inside a folder is followed
 * only when it leads into one of the named folders (by real path); one that leaves them is a
 * failed candidate, so a link to /etc or a home folder never imports what it points at. Hidden
 * entries (`.DS_Store`, editor swap files, `.git/`) are not imported: each is a skipped candidate,
 * so the report names it. Folders are visited once by real path, so a symlink loop ends.
 */
export async function expandPaths(
  paths: readonly string[],
  exclude: readonly string[] = [],
): Promise<ImportCandidate[]> {
  const skip = new Set(exclude.map((p) => path.resolve(p)));
  const seenFolders = new Set<string>();
  const candidates: ImportCandidate[] = [];
  const roots: string[] = [];
  for (const target of paths) {
    const resolved = path.resolve(target);
    const info = await stat(resolved).catch(() => undefined);
    if (info?.isDirectory()) roots.push(await realpath(resolved));
  }

  /** Why an entry inside a folder is not followed, when it is a symlink that leaves the named folders. */
  const leavesRoots = async (entry: string): Promise<string | undefined> => {
    if (!(await lstat(entry)).isSymbolicLink()) return undefined;
    const real = await realpath(entry);
    return roots.some((root) => isWithin(real, root)) ? undefined : `symlink to ${real}, outside the named folders`;
  };

  const visit = async (resolved: string, named: boolean): Promise<void> => {
    if (skip.has(resolved)) return;
    let info: Stats;
    try {
      info = await stat(resolved);
    } catch (error) {
      if (named)
        throw new Error(
          errorCode(error) === 'ENOENT'
            ? `${resolved} does not exist.`
            : `cannot read ${resolved} (${errorCode(error)}).`,
          { cause: error },
        );
      candidates.push({ file: resolved, problem: `cannot read (${errorCode(error)})` });
      return;
    }
    if (!named) {
      const outside = await leavesRoots(resolved);
      if (outside !== undefined) {
        candidates.push({ file: resolved, problem: outside });
        return;
      }
    }
    if (info.isDirectory()) {
      const real = await realpath(resolved);
      if (seenFolders.has(real)) return;
      seenFolders.add(real);
      const before = candidates.length;
      for (const entry of (await readdir(resolved)).sort()) {
        const child = path.join(resolved, entry);
        if (entry.startsWith('.')) {
          if (!skip.has(child)) candidates.push({ file: child, skip: 'hidden, not imported' });
          continue;
        }
        await visit(child, false);
      }
      if (named && candidates.slice(before).every((candidate) => candidate.skip !== undefined))
        candidates.push({ file: resolved, problem: 'no files in this folder' });
    } else if (info.isFile()) {
      candidates.push({ file: resolved });
    } else {
      candidates.push({ file: resolved, problem: 'not a regular file' });
    }
  };
  for (const target of paths) await visit(path.resolve(target), true);
  return candidates;
}
