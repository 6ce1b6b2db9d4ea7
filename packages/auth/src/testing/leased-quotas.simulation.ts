import type { RedisClient } from '@pawlink/service-kit/redis';
import { LeasedQuotasRepository } from '../repositories/leased-quotas.repository.js';
import { RedisRateLimitWindows, type LeaseRequest } from '../repositories/rate-limit.repository.js';

export interface LeaseSimulationOptions {
  /** One client per simulated instance, all on the same Redis (or the same Cluster). */
  clients: readonly RedisClient[];
  /** A prefix of the test's own. */
  prefix: string;
  seed: number;
  /** One window per limit, each of its own identity. */
  limits: readonly number[];
  /** Requests in all, spread over the instances and windows at random. */
  requests: number;
}

/** One window after the run: what was admitted and refused, its shared count, and what the instances still hold. */
export interface SimulatedWindow {
  key: string;
  limit: number;
  admitted: number;
  refused: number;
  sharedCount: number;
  held: number;
}

export interface LeaseSimulationResult {
  windows: SimulatedWindow[];
  /** Lease script calls made by all the instances. */
  leaseCalls: number;
}

/** A small seeded generator (mulberry32): the same seed, the same arrivals. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Several instances' leased quotas over one shared Redis, taking units of the same windows at
 * random: bursts of 1–8 requests to a random instance and window (the first windows far busier
 * than the last), between them a pause of nothing, an event-loop turn or a few ms. For the
 * property that the shared count never passes a limit (docs/adr/0021).
 */
export async function simulateLeasedQuotas(options: LeaseSimulationOptions): Promise<LeaseSimulationResult> {
  const random = seededRandom(options.seed);
  let leaseCalls = 0;
  const instances = options.clients.map((client) => {
    const windows = new RedisRateLimitWindows(client, options.prefix);
    const lease = windows.lease.bind(windows);
    windows.lease = (requests: readonly LeaseRequest[]) => {
      leaseCalls++;
      return lease(requests);
    };
    return new LeasedQuotasRepository({ windows });
  });
  const windows = options.limits.map((limit, i) => ({
    key: `sim:route:{sim:${options.seed}:${i}}`,
    windowMs: 60_000,
    limit,
    admitted: 0,
    refused: 0,
  }));
  const taken: Array<Promise<void>> = [];
  for (let sent = 0; sent < options.requests;) {
    const instance = instances[Math.floor(random() * instances.length)]!;
    // The square skews the choice towards the first windows: busy keys beside quiet ones.
    const window = windows[Math.floor(random() ** 2 * windows.length)]!;
    const burst = Math.min(1 + Math.floor(random() * 8), options.requests - sent);
    for (let i = 0; i < burst; i++) {
      taken.push(
        Promise.resolve(instance.take(window)).then((use) => {
          if (use.taken) window.admitted++;
          else window.refused++;
        }),
      );
    }
    sent += burst;
    const pause = random();
    if (pause < 0.3) await new Promise((resolve) => setImmediate(resolve));
    else if (pause < 0.4) await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 4)));
  }
  await Promise.all(taken);
  const client = options.clients[0]!;
  return {
    leaseCalls,
    windows: await Promise.all(
      windows.map(async ({ key, limit, admitted, refused }) => ({
        key,
        limit,
        admitted,
        refused,
        sharedCount: Number((await client.get(`${options.prefix}${key}`)) ?? 0),
        held: instances.reduce((sum, instance) => sum + instance.heldOf(key), 0),
      })),
    ),
  };
}

/**
 * What breaks the leased quotas' promises in a run, in words (none when they held): a window
 * admitting or counting past its limit, a leased unit neither spent nor held (or spent twice), a
 * refusal before the window was full, a request lost.
 */
export function leaseViolations(result: LeaseSimulationResult, requests: number): string[] {
  const found: string[] = [];
  let answered = 0;
  for (const { key, limit, admitted, refused, sharedCount, held } of result.windows) {
    if (admitted > limit) found.push(`${key}: ${admitted} admitted, limit ${limit}`);
    if (sharedCount > limit) found.push(`${key}: shared count ${sharedCount}, limit ${limit}`);
    if (admitted + held !== sharedCount)
      found.push(`${key}: ${admitted} admitted + ${held} held ≠ shared count ${sharedCount}`);
    if (refused > 0 && sharedCount !== limit)
      found.push(`${key}: ${refused} refused with the window at ${sharedCount} of ${limit}`);
    answered += admitted + refused;
  }
  if (answered !== requests) found.push(`${answered} of ${requests} requests answered`);
  return found;
}
