/**
 * The Node.js major Pawlink is built and tested on (runtime/package.json pins the exact release;
 * `engines` in the root package.json says the same; infra/test/node-runtime.test.ts keeps them in step).
 */
export const REQUIRED_NODE_MAJOR = 26;

/** Why `version` (as in `process.versions.node`) cannot run Pawlink, or null when it can. */
export function unsupportedNodeMessage(version: string): string | null {
  const major = Number.parseInt(version.split('.')[0] ?? '', 10);
  if (Number.isInteger(major) && major >= REQUIRED_NODE_MAJOR) return null;
  return (
    `Pawlink needs Node.js ${REQUIRED_NODE_MAJOR} (the release pinned in runtime/package.json); this is Node.js ${version}. ` +
    'Start it with npm start or bin/admin, which use that release, or run runtime/node_modules/.bin/node ' +
    '(scripts/bootstrap.sh installs it).'
  );
}
