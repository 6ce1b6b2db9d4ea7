import cliProgress from 'cli-progress';
import type { LinkSource } from '../link-sources/imported-link.js';
import type { ImportSummary } from '../repositories/import-report.repository.js';

/** How often the bar is redrawn from the source's position. */
const REDRAW_MS = 200;

/**
 * A progress bar (cli-progress, as the images import) over the source's own measure (bytes of a
 * file, links of an API) with the running counts, on a terminal only; elsewhere nothing until the
 * summary. Returns the function that stops it.
 */
export function showImportProgress(source: LinkSource, summary: ImportSummary): () => void {
  if (process.stdout.isTTY !== true) return () => undefined;
  const bar = new cliProgress.SingleBar(
    {
      format: 'importing [{bar}] {percentage}% | {imported} imported, {skipped} skipped, {refused} refused',
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  const counts = () => ({ imported: summary.imported, skipped: summary.skipped, refused: summary.refused });
  const { done, total } = source.progress();
  bar.start(total ?? Math.max(done, 1), done, counts());
  const timer = setInterval(() => {
    const now = source.progress();
    if (now.total !== null) bar.setTotal(now.total);
    bar.update(now.done, counts());
  }, REDRAW_MS);
  return () => {
    clearInterval(timer);
    const now = source.progress();
    bar.update(now.total ?? now.done, counts());
    bar.stop();
  };
}
