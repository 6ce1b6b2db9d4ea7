import type { ApiKeyFlag } from '@pawlink/contracts';
import type { ApiKeyRepository, NewApiKey } from '../repositories/api-key.repository.js';

/**
 * A key for a test: the given flags and no rate limits unless the test sets them. Returns the key
 * in clear, as a client would send it.
 */
export async function createTestKey(
  keys: ApiKeyRepository,
  flags: ApiKeyFlag[],
  overrides: Partial<Omit<NewApiKey, 'flags'>> = {},
): Promise<string> {
  const { key } = await keys.create({
    name: 'test',
    contact: 'test@example.com',
    flags,
    rateLimitRoute: 0,
    rateLimitGlobal: 0,
    ...overrides,
  });
  return key;
}

export {
  leaseViolations,
  seededRandom,
  simulateLeasedQuotas,
  type LeaseSimulationOptions,
  type LeaseSimulationResult,
  type SimulatedWindow,
} from './leased-quotas.simulation.js';
