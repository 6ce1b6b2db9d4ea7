import { parseMediaHost, type MediaHost } from '@pawlink/address-safety';

/**
 * Typed configuration read once from the environment. Each reader names the variable in its
 * error so a bad value stops the process with a message an operator can act on.
 */
export type Env = Readonly<Record<string, string | undefined>>;

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`Invalid configuration: ${variable} ${reason}`);
    this.name = 'ConfigError';
  }
}

/** Variables whose values no error ever shows, whatever reads them. */
const SECRET_VARIABLE = /PASSWORD|PASSWD|SECRET|TOKEN|(?:^|_)KEY$/i;

/** Query parameters that carry credentials in connection URLs (`?password=…`, `?auth=…`). */
const SECRET_PARAMETER = /([?&;][^=&#;]*(?:pass|pwd|secret|token|key|auth)[^=&#;]*=)[^&#;]*/gi;

/**
 * `value` with anything that may be a credential masked: the user info of a URL (everything up to
 * the last `@`, so a password holding `@` or `/` is masked whole), a password after the last `:` of
 * an authority without `@` (`redis://:secret`), and password-like query parameters. Errs on the side
 * of masking: an error message only has to name the variable and hint at the mistake.
 */
export function redactCredentials(value: string): string {
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(value)?.[0] ?? '';
  let rest = value.slice(scheme.length);
  const at = rest.lastIndexOf('@');
  if (at >= 0) {
    rest = `***${rest.slice(at)}`;
  } else if (scheme !== '') {
    const authority = /^[^/?#]*/.exec(rest)?.[0] ?? '';
    const colon = authority.lastIndexOf(':');
    if (colon >= 0 && !/^\d*$/.test(authority.slice(colon + 1)))
      rest = `${authority.slice(0, colon)}:***${rest.slice(authority.length)}`;
  }
  return `${scheme}${rest}`.replace(SECRET_PARAMETER, '$1***');
}

/** A value as a configuration error may quote it: never a secret variable's, never a URL's credentials. */
function shown(name: string, value: string): string {
  return SECRET_VARIABLE.test(name) ? '(hidden)' : `"${redactCredentials(value)}"`;
}

function raw(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export function readString(env: Env, name: string, fallback: string): string {
  return raw(env, name) ?? fallback;
}

/** Like readString but an empty value is kept (passwords). */
export function readSecret(env: Env, name: string, fallback = ''): string {
  return env[name] ?? fallback;
}

export function readInt(env: Env, name: string, fallback: number, range: { min?: number; max?: number } = {}): number {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  const got = shown(name, value);
  if (!/^-?\d+$/.test(value)) throw new ConfigError(name, `must be an integer, got ${got}`);
  const parsed = Number(value);
  if (range.min !== undefined && parsed < range.min)
    throw new ConfigError(name, `must be at least ${range.min}, got ${got}`);
  if (range.max !== undefined && parsed > range.max)
    throw new ConfigError(name, `must be at most ${range.max}, got ${got}`);
  return parsed;
}

export function readPort(env: Env, name: string, fallback: number): number {
  return readInt(env, name, fallback, { min: 0, max: 65535 });
}

/** A port, or null for `off` (a listener the operator turned off). */
export function readPortOrOff(env: Env, name: string, fallback: number | null): number | null {
  const value = raw(env, name);
  if (value !== undefined && value.toLowerCase() === 'off') return null;
  if (value === undefined && fallback === null) return null;
  return readPort(env, name, fallback ?? 0);
}

const TRUE = new Set(['1', 'true', 'yes', 'on']);
const FALSE = new Set(['0', 'false', 'no', 'off']);

export function readBool(env: Env, name: string, fallback: boolean): boolean {
  const value = raw(env, name)?.toLowerCase();
  if (value === undefined) return fallback;
  if (TRUE.has(value)) return true;
  if (FALSE.has(value)) return false;
  throw new ConfigError(name, `must be true or false, got ${shown(name, value)}`);
}

export function readEnum<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got ${shown(name, value)}`);
  }
  return value as T;
}

/** An absolute http(s) or redis URL without a trailing slash. */
export function readUrl(env: Env, name: string, fallback: string, protocols = ['http:', 'https:']): string {
  const value = raw(env, name) ?? fallback;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(name, `must be an absolute URL, got ${shown(name, value)}`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}, got ${shown(name, value)}`);
  }
  return value.replace(/\/+$/, '');
}

export function readIdentifier(env: Env, name: string, fallback: string, pattern: RegExp): string {
  const value = raw(env, name) ?? fallback;
  if (!pattern.test(value)) throw new ConfigError(name, `must match ${String(pattern)}, got ${shown(name, value)}`);
  return value;
}

/** A `host:port` of a server (`[v6]:port` for IPv6 literals). */
export interface HostPort {
  host: string;
  port: number;
}

/** A comma-separated list of `host:port` (at least one); undefined when the variable is unset or empty. */
export function readHostPorts(env: Env, name: string): HostPort[] | undefined {
  const value = raw(env, name);
  if (value === undefined) return undefined;
  const entries = value.split(',').map((entry) => entry.trim());
  return entries.map((entry) => {
    const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(entry);
    const port = Number(match?.[2]);
    if (!match || !(port >= 1 && port <= 65535))
      throw new ConfigError(name, `must be a comma-separated list of host:port, got ${shown(name, entry)}`);
    return { host: match[1]!.replace(/^\[(.*)\]$/, '$1'), port };
  });
}

/** A comma-separated list of `host[:port]` entries (IPv6 in brackets); null when the variable is unset or empty. */
export function readHostList(env: Env, name: string): MediaHost[] | null {
  const value = readString(env, name, '');
  if (value === '') return null;
  return value.split(',').map((entry) => {
    const host = parseMediaHost(entry);
    if (!host)
      throw new ConfigError(name, `must list host or host:port entries separated by commas, got "${entry.trim()}"`);
    return host;
  });
}

/** A 256-bit key as 64 hex digits or base64 of 32 bytes, kept as given ('' when unset); its value is never shown. */
export function readKey256(env: Env, name: string): string {
  const value = readSecret(env, name, '').trim();
  if (value === '' || /^[0-9a-fA-F]{64}$/.test(value) || /^[A-Za-z0-9+/_-]{43}=?$/.test(value)) return value;
  throw new ConfigError(name, 'must be 64 hex digits (or base64 of 32 bytes)');
}
