import { describe, expect, it } from 'vitest';
import { DependencyUnavailableError } from './dependency-failure.js';
import { isRetryableWriteFailure, retryWrite } from './retry-write.js';

const driverError = (code: string, message = code) =>
  Object.assign(new Error(message), { name: 'QueryFailedError', driverError: { code, message, sqlMessage: message } });

/** A clock that only moves when the retry pauses. */
function fakeTime() {
  let at = 0;
  const pauses: number[] = [];
  return {
    pauses,
    now: () => at,
    pause: (ms: number) => {
      pauses.push(ms);
      at += ms;
      return Promise.resolve();
    },
  };
}

describe('retryWrite', () => {
  it('tries a certification conflict again and returns the try that committed', async () => {
    const time = fakeTime();
    const seen: number[] = [];
    const result = await retryWrite(
      (attempt) => {
        seen.push(attempt);
        if (attempt < 3) throw driverError('ER_LOCK_DEADLOCK', 'Deadlock found when trying to get lock');
        return Promise.resolve('done');
      },
      { now: time.now, pause: time.pause, random: () => 0.5 },
    );
    expect(result).toBe('done');
    expect(seen).toEqual([1, 2, 3]);
    expect(time.pauses).toEqual([60, 60]);
  });

  it('stops after the last try and throws its failure', async () => {
    const time = fakeTime();
    let tries = 0;
    const failure = driverError('PROTOCOL_CONNECTION_LOST');
    await expect(
      retryWrite(
        () => {
          tries++;
          throw failure;
        },
        { attempts: 3, now: time.now, pause: time.pause },
      ),
    ).rejects.toBe(failure);
    expect(tries).toBe(3);
  });

  it('never starts a try past its budget', async () => {
    const time = fakeTime();
    let tries = 0;
    await expect(
      retryWrite(
        () => {
          tries++;
          throw driverError('ER_UNKNOWN_COM_ERROR', 'WSREP has not yet prepared node for application use');
        },
        { attempts: 10, budgetMs: 150, minDelayMs: 100, maxDelayMs: 100, now: time.now, pause: time.pause },
      ),
    ).rejects.toThrow('WSREP');
    expect(tries).toBe(2);
  });

  it('fails at once on what another try cannot fix: a timeout, an open circuit, a constraint', async () => {
    for (const failure of [
      driverError('PROTOCOL_SEQUENCE_TIMEOUT'),
      driverError('ECONNREFUSED'),
      new DependencyUnavailableError('database'),
      driverError('ER_DUP_ENTRY', "Duplicate entry 'x' for key 'uq'"),
      new TypeError('a bug'),
    ]) {
      let tries = 0;
      await expect(
        retryWrite(() => {
          tries++;
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect(tries).toBe(1);
    }
  });
});

describe('isRetryableWriteFailure', () => {
  it('knows a read-only writer by the option 1290 names', () => {
    expect(
      isRetryableWriteFailure(driverError('ER_OPTION_PREVENTS_STATEMENT', 'running with the --read-only option')),
    ).toBe(true);
    expect(
      isRetryableWriteFailure(
        driverError('ER_OPTION_PREVENTS_STATEMENT', 'running with the --secure-file-priv option'),
      ),
    ).toBe(false);
    expect(isRetryableWriteFailure(driverError('ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION'))).toBe(true);
    expect(isRetryableWriteFailure(driverError('ECONNRESET'))).toBe(true);
  });
});
