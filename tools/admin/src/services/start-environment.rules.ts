import path from 'node:path';

const LINE = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$/;
const QUOTED = [/^"(.*)"\s*$/, /^'(.*)'\s*$/];

/**
 * The variables a `.env` file sets, read as scripts/bootstrap.sh reads it (`NAME=value` or
 * `export NAME=value`, one pair of surrounding quotes dropped, anything else on a line ignored).
 */
export function parseDotEnv(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const match = LINE.exec(line);
    if (!match) continue;
    let value = match[2]!;
    for (const quoted of QUOTED) {
      const inner = quoted.exec(value);
      if (inner) {
        value = inner[1]!;
        break;
      }
    }
    if (!values.has(match[1]!)) values.set(match[1]!, value);
  }
  return values;
}

/**
 * The environment `npm start` runs its programs with, as far as bin/admin needs it: the
 * checkout's `.env` fills in every variable the environment does not set (an exported value wins,
 * even an empty one), as in scripts/bootstrap.sh.
 */
export function withDotEnv(env: NodeJS.ProcessEnv, dotEnv: ReadonlyMap<string, string>): NodeJS.ProcessEnv {
  const merged: NodeJS.ProcessEnv = { ...env };
  for (const [name, value] of dotEnv) if (merged[name] === undefined) merged[name] = value;
  return merged;
}

/** Where `npm start` keeps the secrets key for this environment: PAWLINK_DATA_DIR (default `data/` in the checkout)`/keys/secrets.key`. */
export function secretsKeyFileOf(env: NodeJS.ProcessEnv, root: string): string {
  const dataDir = env.PAWLINK_DATA_DIR === undefined || env.PAWLINK_DATA_DIR === '' ? 'data' : env.PAWLINK_DATA_DIR;
  return path.resolve(root, dataDir, 'keys', 'secrets.key');
}
