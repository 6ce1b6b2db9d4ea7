import { describe, expect, it } from 'vitest';

/** An app's configuration loader: the environment in, the typed configuration out (or a throw). */
export type ConfigLoader = (env: Record<string, string>) => unknown;

/** The error a bad value stops the process with (the kit's `ConfigError`; passed in, the kit depends on this package). */
export type ConfigErrorClass = abstract new (...args: never[]) => Error;

/** Each `[variable, value]` alone is refused with `configError`, whose message names the variable. */
export function itRefusesBadValues(
  load: ConfigLoader,
  configError: ConfigErrorClass,
  cases: ReadonlyArray<readonly [string, string]>,
  title = 'names %s when it is bad',
): void {
  it.each(cases.map(([name, value]) => [name, value] as [string, string]))(title, (name, value) => {
    expect(() => load({ [name]: value })).toThrow(configError);
    expect(() => load({ [name]: value })).toThrow(name);
  });
}

/** The message `load(env)` stops the process with (runService prints it as it is). */
export function configErrorOf(load: ConfigLoader, configError: ConfigErrorClass, env: Record<string, string>): string {
  try {
    load(env);
  } catch (error) {
    if (error instanceof configError) return error.message;
    throw error;
  }
  throw new Error('expected a configuration error');
}

/** A loader's refusals never show a credential: the shared variables every service reads. */
export function describeConfigSecrets(load: ConfigLoader, configError: ConfigErrorClass): void {
  describe('configuration errors never show a secret', () => {
    it.each([
      ['http://:hunter2@redis.internal:6379', 'http://***@redis.internal:6379'],
      ['ftp://pawlink:hunter2@redis.internal', 'ftp://***@redis.internal'],
      ['redis://:hun@ter2@redis internal', 'redis://***@redis internal'],
      ['redis://:hun/ter2@redis.internal', 'redis://***@redis.internal'],
      ['pawlink:hunter2@redis.internal:6379', '***@redis.internal:6379'],
      ['redis://:hunter2', 'redis://:***'],
      ['http://redis.internal:6379/0?password=hunter2&db=1', 'http://redis.internal:6379/0?password=***&db=1'],
    ])('masks the credentials of REDIS_URL=%s', (value, masked) => {
      const message = configErrorOf(load, configError, { REDIS_URL: value });
      expect(message).toContain('REDIS_URL');
      expect(message).toContain(masked);
      expect(message).not.toMatch(/hunter2|hun@ter2|hun\/ter2/);
    });

    it('keeps what is not a credential, so the mistake can still be seen', () => {
      expect(configErrorOf(load, configError, { REDIS_URL: 'http://redis.internal:6379' })).toContain(
        '"http://redis.internal:6379"',
      );
      expect(configErrorOf(load, configError, { SHORTENER_URL: 'ftp://pawl.ink' })).toContain('"ftp://pawl.ink"');
    });
  });
}
