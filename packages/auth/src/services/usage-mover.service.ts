import { BatchMover, type Logger } from '@pawlink/service-kit';
import type { PendingUsageRepository } from '../repositories/pending-usage.repository.js';
import type { UsageRepository } from '../repositories/usage.repository.js';

export interface UsageMoverDeps {
  pending: Pick<PendingUsageRepository, 'take' | 'batches' | 'batch' | 'forget'>;
  usage: Pick<UsageRepository, 'applyBatch' | 'pruneMoves'>;
  moveMs: number;
  logger: Logger;
  now: () => number;
}

/** Key-days per batch. */
const BATCH_KEY_DAYS = 1_000;

/**
 * Moves key usage from Redis to `api_key_usage` every `moveMs`, up to 1,000 key-days per batch,
 * each batch added once (service-kit's BatchMover, as the shortener's visit counts).
 */
export class UsageMoverService extends BatchMover<Awaited<ReturnType<PendingUsageRepository['batch']>>> {
  constructor({ pending, usage, moveMs, logger, now }: UsageMoverDeps) {
    super({ pending, store: usage, batchSize: BATCH_KEY_DAYS, moveMs, logger, now, what: 'key usage' });
  }
}
