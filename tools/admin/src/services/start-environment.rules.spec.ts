import { describe, expect, it } from 'vitest';
import { parseDotEnv, secretsKeyFileOf, withDotEnv } from './start-environment.rules.js';

describe('the environment of npm start, as bin/admin reads it', () => {
  it('reads .env as the bootstrap does: export, one pair of quotes, the first of a name; other lines ignored', () => {
    const values = parseDotEnv(
      [
        'DB_PREFIX=i34_',
        'export REDIS_PREFIX="i34:"',
        "DB_PASSWORD='se cret'",
        '# a comment',
        'not a pair',
        'DB_PREFIX=second_',
        'EMPTY=',
      ].join('\n'),
    );
    expect([...values]).toEqual([
      ['DB_PREFIX', 'i34_'],
      ['REDIS_PREFIX', 'i34:'],
      ['DB_PASSWORD', 'se cret'],
      ['EMPTY', ''],
    ]);
  });

  it('lets every variable the environment sets win, even an empty one', () => {
    const merged = withDotEnv(
      { DB_PREFIX: 'env_', PAWLINK_SECRETS_KEY: '' },
      new Map([
        ['DB_PREFIX', 'file_'],
        ['PAWLINK_SECRETS_KEY', 'ab'],
        ['REDIS_PREFIX', 'file:'],
      ]),
    );
    expect(merged).toEqual({ DB_PREFIX: 'env_', PAWLINK_SECRETS_KEY: '', REDIS_PREFIX: 'file:' });
  });

  it('finds the secrets key in PAWLINK_DATA_DIR, by default data/ in the checkout, a relative one from the checkout', () => {
    expect(secretsKeyFileOf({}, '/repo')).toBe('/repo/data/keys/secrets.key');
    expect(secretsKeyFileOf({ PAWLINK_DATA_DIR: '/srv/pawlink' }, '/repo')).toBe('/srv/pawlink/keys/secrets.key');
    expect(secretsKeyFileOf({ PAWLINK_DATA_DIR: 'state' }, '/repo')).toBe('/repo/state/keys/secrets.key');
  });
});
