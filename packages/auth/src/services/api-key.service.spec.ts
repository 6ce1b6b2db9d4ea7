import type { ApiKeyFlag } from '@pawlink/contracts';
import { ApiError, DependencyUnavailableError } from '@pawlink/service-kit';
import { describe, expect, it } from 'vitest';
import type { ApiKey } from '../db/entities/api-key.entity.js';
import { ApiKeyService, type ApiKeyStore, type InvalidKeyAllowance } from './api-key.service.js';

const PRESENTED = 'pl_spec-key';

function keyRow(changes: Partial<ApiKey> = {}): ApiKey {
  return {
    id: 1,
    keyHash: 'h',
    name: 'bot',
    contact: 'c',
    flags: ['thumbs'],
    active: true,
    disabled: false,
    disabledReason: null,
    bulkLimit: 100,
    rateLimitRoute: null,
    rateLimitGlobal: null,
    createdAt: new Date(0),
    lastUsedAt: null,
    ...changes,
  };
}

/** One stored key (or none), a clock the test moves, and every lookup, touch and slot counted. */
function setup(row: ApiKey | null, options: { cacheTtlMs?: number; staleTtlMs?: number } = {}) {
  const state = { row, now: 1_000_000, finds: 0, touches: [] as number[], taken: 0, refunded: 0, down: false };
  const store: ApiKeyStore = {
    findByKey(presented) {
      state.finds++;
      if (state.down) return Promise.reject(new DependencyUnavailableError('database'));
      return Promise.resolve(presented === PRESENTED ? state.row : null);
    },
    touch(_id, at) {
      state.touches.push(at.getTime());
      return Promise.resolve();
    },
  };
  const invalidKeys: InvalidKeyAllowance<string> = {
    take: () => Promise.resolve(void state.taken++),
    refund: () => Promise.resolve(void state.refunded++),
  };
  const service = new ApiKeyService<string>(store, { ...options, invalidKeys, now: () => state.now });
  const codeOf = (promise: Promise<unknown>) =>
    promise.then(
      () => 'let in',
      (error: unknown) => (error instanceof ApiError ? error.code : error),
    );
  return {
    state,
    authenticate: (presented: string | undefined, flag?: ApiKeyFlag, required = true) =>
      service.authenticate(presented, 'client', required, flag),
    verify: (presented: string, flag: ApiKeyFlag = 'thumbs') => service.verify(presented, flag, 'client'),
    codeOf,
  };
}

describe('ApiKeyService: which keys come in', () => {
  it('answers 1013 without a key when one is required, and lets anonymous requests pass otherwise', async () => {
    const s = setup(keyRow());
    expect(await s.codeOf(s.authenticate(undefined))).toBe(1013);
    expect(await s.authenticate(undefined, undefined, false)).toBeUndefined();
    expect(s.state.finds).toBe(0);
  });

  it('answers 1010 unknown, 1011 inactive, 1012 disabled with its reason, 1022 without the flag', async () => {
    const unknown = setup(null);
    expect(await unknown.codeOf(unknown.authenticate(PRESENTED))).toBe(1010);
    const inactive = setup(keyRow({ active: false }));
    expect(await inactive.codeOf(inactive.authenticate(PRESENTED))).toBe(1011);
    const disabled = setup(keyRow({ disabled: true, disabledReason: 'abuse' }));
    const error = await disabled.authenticate(PRESENTED).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 1012, extra: { reason: 'abuse' } });
    const unflagged = setup(keyRow({ flags: ['shortener'] }));
    expect(await unflagged.codeOf(unflagged.authenticate(PRESENTED, 'thumbs'))).toBe(1022);
    expect(await unflagged.authenticate(PRESENTED)).toMatchObject({ id: 1 });
  });

  it('looks a malformed key up nowhere, but it uses a slot of the allowance', async () => {
    const s = setup(keyRow());
    expect(await s.codeOf(s.authenticate('x'.repeat(201)))).toBe(1010);
    expect(await s.codeOf(s.authenticate('with space'))).toBe(1010);
    expect([s.state.finds, s.state.taken]).toEqual([0, 2]);
  });
});

describe('ApiKeyService: the keys it remembers', () => {
  it('asks the database once per cacheTtlMs for a valid key, then again, so a revoke takes effect', async () => {
    const s = setup(keyRow(), { cacheTtlMs: 2_000 });
    await s.authenticate(PRESENTED);
    await s.authenticate(PRESENTED);
    expect(s.state.finds).toBe(1);
    s.state.row = keyRow({ active: false });
    s.state.now += 1_999;
    expect(await s.authenticate(PRESENTED)).toMatchObject({ active: true });
    s.state.now += 1;
    expect(await s.codeOf(s.authenticate(PRESENTED))).toBe(1011);
    expect(s.state.finds).toBe(2);
  });

  it('remembers an unknown key as unknown for cacheTtlMs too', async () => {
    const s = setup(null, { cacheTtlMs: 2_000 });
    await s.codeOf(s.authenticate(PRESENTED));
    await s.codeOf(s.authenticate(PRESENTED));
    expect(s.state.finds).toBe(1);
    s.state.row = keyRow();
    s.state.now += 2_000;
    expect(await s.authenticate(PRESENTED)).toMatchObject({ id: 1 });
  });

  it('keeps a key seen valid working through a database outage of up to staleTtlMs, never a key it has not seen', async () => {
    const s = setup(keyRow(), { cacheTtlMs: 1_000, staleTtlMs: 60_000 });
    const unseen = setup(keyRow());
    await s.authenticate(PRESENTED);
    s.state.down = true;
    unseen.state.down = true;
    s.state.now += 59_999;
    expect(await s.authenticate(PRESENTED)).toMatchObject({ id: 1 });
    await expect(unseen.authenticate(PRESENTED)).rejects.toBeInstanceOf(DependencyUnavailableError);
    s.state.now += 1;
    await expect(s.authenticate(PRESENTED)).rejects.toBeInstanceOf(DependencyUnavailableError);
  });

  it('records a key’s use at most once a minute', async () => {
    const s = setup(keyRow(), { cacheTtlMs: 600_000 });
    const start = s.state.now;
    await s.authenticate(PRESENTED);
    s.state.now += 59_999;
    await s.authenticate(PRESENTED);
    s.state.now += 1;
    await s.authenticate(PRESENTED);
    expect(s.state.touches).toEqual([start, start + 60_000]);
  });
});

describe('ApiKeyService: the invalid-key allowance', () => {
  it('takes a slot for a key it does not trust yet and gives it back when the key is stored, even inactive', async () => {
    const s = setup(keyRow({ active: false }));
    await s.codeOf(s.authenticate(PRESENTED));
    expect([s.state.taken, s.state.refunded]).toEqual([1, 1]);
  });

  it('keeps the slot of an unknown key, and takes none for a key it trusts', async () => {
    const unknown = setup(null);
    await unknown.codeOf(unknown.authenticate('pl_unknown'));
    expect([unknown.state.taken, unknown.state.refunded]).toEqual([1, 0]);
    const known = setup(keyRow(), { cacheTtlMs: 0 });
    await known.authenticate(PRESENTED);
    await known.authenticate(PRESENTED);
    expect([known.state.taken, known.state.refunded, known.state.finds]).toEqual([1, 1, 2]);
  });

  it('verify: the same 1022 for every key it would not let in, each keeping its slot; a key it lets in gives its slot back', async () => {
    for (const row of [null, keyRow({ active: false }), keyRow({ disabled: true }), keyRow({ flags: ['shortener'] })]) {
      const s = setup(row);
      expect(await s.codeOf(s.verify(PRESENTED))).toBe(1022);
      // A key already trusted but refused for this use still uses a slot.
      expect(await s.codeOf(s.verify(PRESENTED))).toBe(1022);
      expect([s.state.taken, s.state.refunded]).toEqual([2, 0]);
    }
    const admin = setup(keyRow({ flags: ['admin'] }));
    expect(await admin.verify(PRESENTED, 'admin')).toMatchObject({ id: 1 });
    expect(await admin.verify(PRESENTED, 'admin')).toMatchObject({ id: 1 });
    expect([admin.state.taken, admin.state.refunded, admin.state.finds]).toEqual([1, 1, 1]);
  });
});

describe('ApiKeyService: concurrent first uses of a key', () => {
  it('share one lookup, and one slot taken while it runs and given back when the key is stored', async () => {
    const s = setup(keyRow());
    const answers = await Promise.all(Array.from({ length: 100 }, () => s.codeOf(s.authenticate(PRESENTED))));
    expect(new Set(answers)).toEqual(new Set(['let in']));
    expect([s.state.finds, s.state.taken, s.state.refunded]).toEqual([1, 1, 1]);
  });

  it('of an unknown key share one lookup, each keeping a slot as one after another would', async () => {
    const s = setup(null);
    const answers = await Promise.all(Array.from({ length: 5 }, () => s.codeOf(s.authenticate('pl_unknown'))));
    expect(answers).toEqual([1010, 1010, 1010, 1010, 1010]);
    expect([s.state.finds, s.state.taken, s.state.refunded]).toEqual([1, 5, 0]);
  });

  it('ask for themselves when the first one’s address had no slot left', async () => {
    const s = setup(keyRow());
    let calls = 0;
    const limited = new ApiError('RATE_LIMITED_ROUTE');
    const service = new ApiKeyService<string>(
      {
        findByKey: () => Promise.resolve(keyRow()),
        touch: () => Promise.resolve(),
      },
      {
        invalidKeys: {
          take: (client) => (client === 'exhausted' ? Promise.reject(limited) : Promise.resolve(void calls++)),
          refund: () => Promise.resolve(),
        },
      },
    );
    const [first, second] = await Promise.all([
      s.codeOf(service.authenticate(PRESENTED, 'exhausted', true)),
      s.codeOf(service.authenticate(PRESENTED, 'fresh', true)),
    ]);
    expect([first, second]).toEqual([1000, 'let in']);
    expect(calls).toBe(1);
  });

  it('through a database outage: a key seen valid before keeps working for every request sharing the lookup', async () => {
    const s = setup(keyRow(), { cacheTtlMs: 1_000 });
    await s.authenticate(PRESENTED);
    s.state.now += 2_000;
    s.state.down = true;
    const answers = await Promise.all(Array.from({ length: 3 }, () => s.codeOf(s.authenticate(PRESENTED))));
    expect(answers).toEqual(['let in', 'let in', 'let in']);
    expect(s.state.finds).toBe(2);
  });
});
