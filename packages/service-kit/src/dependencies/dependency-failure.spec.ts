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

  it("names the database for Galera's transient refusals: certification conflict, node not ready, writer read-only", () => {
    const refusals = [
      {
        code: 'ER_LOCK_DEADLOCK',
        errno: 1213,
        message: 'Deadlock found when trying to get lock; try restarting transaction',
      },
      { code: 'ER_UNKNOWN_COM_ERROR', errno: 1047, message: 'WSREP has not yet prepared node for application use' },
      {
        code: 'ER_OPTION_PREVENTS_STATEMENT',
        errno: 1290,
        message: 'The MariaDB server is running with the --read-only option so it cannot execute this statement',
      },
      {
        code: 'ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION',
        errno: 1792,
        message: 'Cannot execute statement in a READ ONLY transaction',
      },
      { code: 'ER_CONNECTION_KILLED', errno: 1927, message: 'Connection was killed' },
      { code: 'ECONNRESET', errno: undefined, message: 'read ECONNRESET' },
      { code: 'EPIPE', errno: undefined, message: 'write EPIPE' },
    ];
    for (const { code, errno, message } of refusals) {
      const driverError = Object.assign(new Error(message), { code, errno, sqlMessage: message, fatal: false });
      expect(unavailableDependencyOf(driverError), code).toBe('database');
      expect(unavailableDependencyOf({ name: 'QueryFailedError', message, driverError }), code).toBe('database');
    }
    const otherOption = Object.assign(new Error('The MariaDB server is running with the --secure-file-priv option'), {
      code: 'ER_OPTION_PREVENTS_STATEMENT',
      errno: 1290,
      sqlMessage: 'The MariaDB server is running with the --secure-file-priv option',
    });
    expect(unavailableDependencyOf(otherOption)).toBeUndefined();
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
