import { describe, expect, it } from 'vitest';
import { DependencyUnavailableError, unavailableDependencyOf } from './dependency-failure.js';

const mysqlError = (code: string, message = code) => Object.assign(new Error(message), { code, fatal: true });

describe('unavailableDependencyOf', () => {
  it('names the database for mysql2 connectivity failures, also inside typeorm errors', () => {
    for (const code of [
      'ECONNREFUSED',
      'PROTOCOL_CONNECTION_LOST',
      'PROTOCOL_SEQUENCE_TIMEOUT',
      'ETIMEDOUT',
      'ER_CON_COUNT_ERROR',
    ]) {
      expect(unavailableDependencyOf(mysqlError(code)), code).toBe('database');
      expect(
        unavailableDependencyOf({ name: 'QueryFailedError', message: 'x', driverError: mysqlError(code) }),
        code,
      ).toBe('database');
    }
    expect(unavailableDependencyOf(new Error('Pool is closed.'))).toBe('database');
    expect(unavailableDependencyOf(new DependencyUnavailableError('database'))).toBe('database');
  });

  it('names Redis for ioredis connection failures', () => {
    expect(
      unavailableDependencyOf(
        Object.assign(new Error('Reached the max retries per request limit (which is 1).'), {
          name: 'MaxRetriesPerRequestError',
        }),
      ),
    ).toBe('redis');
    for (const message of [
      'Command timed out',
      'Connection is closed.',
      "Stream isn't writeable and enableOfflineQueue options is false",
      'connect ECONNREFUSED 127.0.0.1:6379',
    ]) {
      expect(unavailableDependencyOf(new Error(message)), message).toBe('redis');
    }
  });

  it('names Redis for a Redis Cluster with a master down or no node reachable', () => {
    for (const message of [
      'CLUSTERDOWN The cluster is down',
      'Too many Cluster redirections. Last error: Error: Connection is closed.',
      "Cluster isn't ready and enableOfflineQueue options is false",
      'None of startup nodes is available',
      'Failed to refresh slots cache.',
      'MOVED 9450 127.0.0.1:35307',
      'ASK 9450 127.0.0.1:35307',
    ]) {
      expect(unavailableDependencyOf(new Error(message)), message).toBe('redis');
    }
    expect(unavailableDependencyOf(new Error("CROSSSLOT Keys in request don't hash to the same slot"))).toBeUndefined();
  });

  it('leaves every other failure alone: constraints, missing tables, bugs', () => {
    expect(
      unavailableDependencyOf(
        Object.assign(new Error('Duplicate entry'), {
          code: 'ER_DUP_ENTRY',
          errno: 1062,
          sqlMessage: 'Duplicate entry',
        }),
      ),
    ).toBeUndefined();
    expect(
      unavailableDependencyOf({
        name: 'QueryFailedError',
        message: 'x',
        driverError: { code: 'ER_NO_SUCH_TABLE', errno: 1146, sqlMessage: "Table 'x' doesn't exist" },
      }),
    ).toBeUndefined();
    expect(unavailableDependencyOf(new TypeError('undefined is not a function'))).toBeUndefined();
    expect(unavailableDependencyOf(new Error('ERR unknown command'))).toBeUndefined();
    expect(unavailableDependencyOf('a string')).toBeUndefined();
  });
});
