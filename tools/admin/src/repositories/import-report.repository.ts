import { closeSync, openSync, writeSync } from 'node:fs';
import type { ImportOutcome } from '../services/link-import.service.js';

/** Totals of an import, and how many links each reason refused or skipped. */
export interface ImportSummary {
  imported: number;
  /** Of the imported, those that got a new code (--on-conflict rename). */
  renamed: number;
  skipped: number;
  refused: number;
  /** Reason (quoted values left out) → links. */
  skippedFor: Record<string, number>;
  refusedFor: Record<string, number>;
}

/** A reason with its quoted values left out, so a million bad dates make one line of the summary. */
const reasonKey = (reason: string): string => reason.replace(/"[^"]*"/g, '"…"');

/**
 * The report file of an import: one JSON line per link that was not imported as it was (refused,
 * skipped, or imported under a new code), written as the import goes (memory stays bounded), then
 * one line `{"summary": …}`.
 */
export class ImportReportFile {
  readonly summary: ImportSummary = { imported: 0, renamed: 0, skipped: 0, refused: 0, skippedFor: {}, refusedFor: {} };
  private readonly fd: number;

  constructor(readonly file: string) {
    this.fd = openSync(file, 'w');
  }

  add(outcome: ImportOutcome): void {
    const s = this.summary;
    if (outcome.outcome === 'imported') {
      s.imported++;
      if (outcome.renamedFrom === null) return;
      s.renamed++;
      this.line({ outcome: 'renamed', at: outcome.at, from: outcome.renamedFrom, code: outcome.code });
      return;
    }
    const key = reasonKey(outcome.reason);
    if (outcome.outcome === 'skipped') {
      s.skipped++;
      s.skippedFor[key] = (s.skippedFor[key] ?? 0) + 1;
    } else {
      s.refused++;
      s.refusedFor[key] = (s.refusedFor[key] ?? 0) + 1;
    }
    this.line(outcome);
  }

  /** Writes the summary line (with what the caller adds: the source, the owner, why it stopped) and closes the file. */
  finish(extra: Record<string, unknown>): void {
    this.line({ summary: { ...extra, ...this.summary } });
    closeSync(this.fd);
  }

  private line(value: unknown): void {
    writeSync(this.fd, `${JSON.stringify(value)}\n`);
  }
}
