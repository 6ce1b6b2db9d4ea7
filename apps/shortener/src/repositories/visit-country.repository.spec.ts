import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@pawlink/service-kit';
import { afterAll, describe, expect, it } from 'vitest';
import { loadShortenerConfig } from '../config.js';
import { VisitCountryRepository } from './visit-country.repository.js';

const dir = mkdtempSync(join(tmpdir(), 'geoip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('VisitCountryRepository', () => {
  it('places addresses with the default database (DB-IP Lite), IPv4, IPv6 and IPv4 as a dual-stack socket shows it', () => {
    const countries = new VisitCountryRepository(loadShortenerConfig({}).shortener.visits.geoIpDb);
    expect(countries.countryOf('8.8.8.8')).toBe('US');
    expect(countries.countryOf('::ffff:8.8.8.8')).toBe('US');
    expect(countries.countryOf('81.2.69.160')).toBe('GB');
    expect(countries.countryOf('2a00:1450:4001::1')).toBe('DE');
    expect(countries.countryOf('127.0.0.1')).toBeNull();
    expect(countries.countryOf('10.0.0.1')).toBeNull();
    expect(countries.countryOf('not an address')).toBeNull();
    expect(countries.countryOf('')).toBeNull();
  });

  it('refuses to start without a readable database: a missing or corrupt file is a ConfigError naming GEOIP_DB', () => {
    const corrupt = join(dir, 'corrupt.mmdb');
    writeFileSync(corrupt, 'this is not a MaxMind database');
    for (const path of [join(dir, 'missing.mmdb'), corrupt]) {
      let error: unknown;
      try {
        new VisitCountryRepository(path);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).variable).toBe('GEOIP_DB');
      expect((error as Error).message).toContain(path);
    }
  });
});
