import path from 'node:path';
import cliProgress from 'cli-progress';
import type { ImportOutcome } from '../services/image-import.service.js';

/** One line per file, as the import prints it. */
export function describeOutcome(outcome: ImportOutcome): string {
  switch (outcome.status) {
    case 'imported':
      return `imported ${outcome.file} → ${outcome.id}.${outcome.ext} (${outcome.size} bytes)`;
    case 'duplicate':
      return `skipped ${outcome.file}: duplicate of ${outcome.id} (category ${outcome.category})`;
    case 'failed':
      return `failed ${outcome.file}: ${outcome.reason}`;
    case 'skipped':
      return `skipped ${outcome.file}: ${outcome.reason}`;
  }
}

/** The summary line of an import, and how many files failed. */
export function summarize(outcomes: readonly ImportOutcome[], category: string): { line: string; failed: number } {
  const count = (status: ImportOutcome['status']) => outcomes.filter((o) => o.status === status).length;
  const failed = count('failed');
  const hidden = count('skipped');
  const hiddenNote = hidden === 0 ? '' : ` ${hidden} hidden file(s) or folder(s) not imported.`;
  return {
    line: `Imported ${count('imported')}, skipped ${count('duplicate')} duplicate(s), ${failed} failed, into ${category}.${hiddenNote}`,
    failed,
  };
}

/**
 * How an import shows its progress: a bar on a terminal, with the files that were not imported
 * listed after it; elsewhere (a pipe, a log) one line per file as it is done.
 */
export function importProgress(total: number): { onOutcome: (outcome: ImportOutcome) => void; finish: () => void } {
  if (process.stdout.isTTY !== true) {
    return {
      onOutcome: (outcome) => void process.stdout.write(`${describeOutcome(outcome)}\n`),
      finish: () => undefined,
    };
  }
  const bar = new cliProgress.SingleBar(
    { format: 'importing [{bar}] {value}/{total} {file}', hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  const problems: string[] = [];
  bar.start(total, 0, { file: '' });
  return {
    onOutcome(outcome) {
      bar.increment({ file: path.basename(outcome.file) });
      if (outcome.status !== 'imported') problems.push(describeOutcome(outcome));
    },
    finish() {
      bar.stop();
      for (const line of problems) process.stdout.write(`${line}\n`);
    },
  };
}
