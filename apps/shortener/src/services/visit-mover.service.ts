import { BatchMover, type Logger } from '@pawlink/service-kit';
import type { PendingVisitsRepository } from '../repositories/pending-visits.repository.js';
import type { VisitRepository } from '../repositories/visit.repository.js';

export interface VisitMoverDeps {
  pending: Pick<PendingVisitsRepository, 'take' | 'batches' | 'batch' | 'forget'>;
  visits: Pick<VisitRepository, 'applyBatch' | 'pruneMoves'>;
  moveMs: number;
  logger: Logger;
  now: () => number;
}

/** Codes per batch. */
const BATCH_CODES = 1_000;

/**
 * Moves counted visits from Redis to `short_url_visits` every `moveMs`, the pending days of up to
 * 1,000 codes per batch, each batch added once (service-kit's BatchMover).
 */
export class VisitMoverService extends BatchMover<Awaited<ReturnType<PendingVisitsRepository['batch']>>> {
  constructor({ pending, visits, moveMs, logger, now }: VisitMoverDeps) {
    super({ pending, store: visits, batchSize: BATCH_CODES, moveMs, logger, now, what: 'visit counts' });
  }
}
