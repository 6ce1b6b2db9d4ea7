import { isReservedCode, type CodeHolder, type ImportedEntry, type LinkImportRepository } from '@pawlink/shortener';
import type { SourceItem, SourceName } from '../link-sources/imported-link.js';
import { checkLink, type CheckedLink, type ConflictRule } from './link-import.rules.js';

/** Links looked up and written together: one round trip per look-up and one transaction per batch. */
export const IMPORT_BATCH = 500;

/** Random codes collide with odds ~n/62⁸; a handful of rounds is plenty. */
const RENAME_ROUNDS = 8;

export type ImportOutcome =
  | { outcome: 'imported'; at: string; code: string; renamedFrom: string | null }
  | { outcome: 'skipped' | 'refused'; at: string; code: string | null; reason: string };

export interface LinkImportOptions {
  owner: number;
  source: SourceName;
  onConflict: ConflictRule;
  /** Everything but the writes: the outcomes say what an import would do. */
  dryRun: boolean;
  privateTargetPrefixes: readonly string[];
}

export interface LinkImportDeps {
  repository: Pick<LinkImportRepository, 'importedOrigins' | 'holdersOf' | 'insertBatch'>;
  clock: () => Date;
  randomCode: () => string;
}

/** `--on-conflict fail` met a conflict: the import stops there (what came before it is in). */
export class ImportConflict extends Error {}

/** A link ready to write, and why it has the code it has. */
interface Placed {
  checked: CheckedLink;
  code: string;
  renamedFrom: string | null;
}

/**
 * `bin/admin links import`: reads a source's links in batches, checks each as the API checks a
 * create, keeps its code when it is free and valid (else the conflict rule), skips what an earlier
 * run imported (resumable), and writes each batch in one transaction. Memory is one batch.
 */
export class LinkImportService {
  constructor(private readonly deps: LinkImportDeps) {}

  async run(
    items: AsyncIterable<SourceItem>,
    options: LinkImportOptions,
    onOutcome: (o: ImportOutcome) => void,
  ): Promise<void> {
    const iterator = items[Symbol.asyncIterator]();
    let batch: CheckedLink[] = [];
    let sourceFailure: { error: unknown } | null = null;
    try {
      for (;;) {
        let next: IteratorResult<SourceItem>;
        try {
          next = await iterator.next();
        } catch (error) {
          sourceFailure = { error };
          break;
        }
        if (next.done === true) break;
        const checked = this.check(next.value, options, onOutcome);
        if (checked !== null) batch.push(checked);
        if (batch.length >= IMPORT_BATCH) {
          await this.importBatch(batch, options, onOutcome);
          batch = [];
        }
      }
      // What was read before a source failed is imported too (a re-run skips it).
      await this.importBatch(batch, options, onOutcome);
    } finally {
      if (sourceFailure === null) await iterator.return?.();
    }
    if (sourceFailure !== null) throw sourceFailure.error;
  }

  /** A source's item checked as the API checks a create; null (reported refused) when it cannot be imported. */
  private check(
    item: SourceItem,
    options: LinkImportOptions,
    onOutcome: (o: ImportOutcome) => void,
  ): CheckedLink | null {
    if (!item.ok) {
      onOutcome({ outcome: 'refused', at: item.at, code: item.code, reason: item.reason });
      return null;
    }
    const check = checkLink(item.link, options.privateTargetPrefixes, this.deps.clock());
    if (check.ok) return check.checked;
    onOutcome({ outcome: 'refused', at: item.link.at, code: item.link.code, reason: check.reason });
    return null;
  }

  private async importBatch(
    batch: readonly CheckedLink[],
    options: LinkImportOptions,
    onOutcome: (o: ImportOutcome) => void,
    retried = false,
  ): Promise<void> {
    if (batch.length === 0) return;
    const { repository } = this.deps;
    const imported = await repository.importedOrigins(
      options.owner,
      options.source,
      batch.map((c) => c.link.origin),
    );
    const holders = await repository.holdersOf(batch.flatMap((c) => (c.code === null ? [] : [c.code])));
    const taken = new Set(holders.keys());
    const origins = new Set<string>();
    // In source order; those in `renames` get their random code before the write.
    const ready: Placed[] = [];
    const renames: Placed[] = [];
    for (const checked of batch) {
      const { link } = checked;
      if (imported.has(link.origin) || origins.has(link.origin)) {
        const reason = imported.has(link.origin) ? 'already imported' : 'the same link appears earlier in the source';
        onOutcome({ outcome: 'skipped', at: link.at, code: link.code, reason });
        continue;
      }
      const conflict = this.conflictOf(checked, holders, taken, options.owner);
      if (conflict === 'same') {
        onOutcome({
          outcome: 'skipped',
          at: link.at,
          code: link.code,
          reason: 'already in: the code holds this url for this key',
        });
        continue;
      }
      origins.add(link.origin);
      if (conflict === 'free') {
        const entry: Placed = { checked, code: checked.code ?? '', renamedFrom: null };
        if (checked.code === null) renames.push(entry);
        else taken.add(checked.code);
        ready.push(entry);
        continue;
      }
      if (options.onConflict === 'fail') {
        await this.giveRandomCodes(renames, taken);
        await this.write(ready, options, onOutcome);
        throw new ImportConflict(`${link.at}: ${conflict.reason} (--on-conflict fail)`);
      }
      if (options.onConflict === 'skip') {
        onOutcome({ outcome: 'skipped', at: link.at, code: link.code, reason: conflict.reason });
        origins.delete(link.origin);
        continue;
      }
      const entry: Placed = { checked, code: '', renamedFrom: link.code };
      renames.push(entry);
      ready.push(entry);
    }
    await this.giveRandomCodes(renames, taken);
    if (!(await this.write(ready, options, onOutcome, retried))) {
      // A code was taken, or the same origin imported, by someone else since the look-up: one by one.
      for (const { checked } of ready) await this.importBatch([checked], options, onOutcome, true);
    }
  }

  /** Why `checked` cannot keep its code; 'free' when it can (or has none), 'same' when the code already holds it. */
  private conflictOf(
    checked: CheckedLink,
    holders: ReadonlyMap<string, CodeHolder>,
    taken: ReadonlySet<string>,
    owner: number,
  ): { reason: string } | 'same' | 'free' {
    if (checked.invalidCode !== null) return { reason: checked.invalidCode };
    if (checked.code === null) return 'free';
    const holder = holders.get(checked.code);
    if (holder && holder.url === checked.url && holder.ownerKeyId === owner) return 'same';
    return taken.has(checked.code) ? { reason: 'the code is in use here' } : 'free';
  }

  /** Random codes for `renames`, none of them taken (in the database or in this batch). */
  private async giveRandomCodes(renames: Placed[], taken: Set<string>): Promise<void> {
    let open = renames;
    for (let round = 0; open.length > 0; round++) {
      if (round === RENAME_ROUNDS) throw new Error(`no free random code after ${RENAME_ROUNDS} rounds`);
      for (const r of open) {
        do r.code = this.deps.randomCode();
        while (taken.has(r.code) || isReservedCode(r.code));
        taken.add(r.code);
      }
      const holders = await this.deps.repository.holdersOf(open.map((r) => r.code));
      open = open.filter((r) => holders.has(r.code));
    }
  }

  /** Writes `placed` (unless a dry run) and reports each; false when a unique index refused the batch. */
  private async write(
    placed: readonly Placed[],
    options: LinkImportOptions,
    onOutcome: (o: ImportOutcome) => void,
    retried = false,
  ): Promise<boolean> {
    if (placed.length === 0) return true;
    if (!options.dryRun) {
      const entries: ImportedEntry[] = placed.map(({ checked, code }) => ({
        code,
        url: checked.url,
        credit: checked.credit,
        createdAt: checked.createdAt,
        expiresAt: checked.link.expiresAt,
        maxVisits: checked.link.maxVisits,
        tags: checked.tags,
        visits: checked.link.visits,
        origin: checked.link.origin,
      }));
      const ok = await this.deps.repository.insertBatch(options.owner, options.source, entries, this.deps.clock());
      if (!ok) {
        if (placed.length > 1 || !retried) return false;
        const { link } = placed[0]!.checked;
        onOutcome({ outcome: 'skipped', at: link.at, code: link.code, reason: 'the code was taken while importing' });
        return true;
      }
    }
    for (const { checked, code, renamedFrom } of placed)
      onOutcome({ outcome: 'imported', at: checked.link.at, code, renamedFrom });
    return true;
  }
}
