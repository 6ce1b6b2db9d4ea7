#!/usr/bin/env bash
# npm test: bootstrap, lint, typecheck, then every test in one vitest run. The LAST line of output
# is always `N passed, M failed[, K skipped]` (CI reads it); exit status is non-zero on any failure.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export NO_COLOR=1 FORCE_COLOR=0 TURBO_TELEMETRY_DISABLED=1
# Any npm loglevel inherited from `npm test` must not silence the tools' own errors.
unset npm_config_loglevel

failed=()
REPORT=test-results/vitest.json
rm -f "$REPORT"

if ! bash scripts/bootstrap.sh; then
  failed+=(bootstrap)
fi
# Everything below runs on the Node release the bootstrap installed (runtime/), not the machine's.
export PATH="$ROOT/runtime/node_modules/.bin:$PATH"
hash -r

# Prints "== <step>", runs it, then how long it took.
step() {
  local name="$1" started=$SECONDS status=0
  shift
  echo "== $name"
  "$@" || status=$?
  echo "== $name: $((SECONDS - started)) s$( ((status == 0)) || echo ", FAILED (exit $status)")"
  return "$status"
}

if [[ -x node_modules/.bin/vitest ]]; then
  echo "== node $(node -v)"
  step lint pnpm --silent lint || failed+=(lint)
  step typecheck pnpm --silent typecheck || failed+=(typecheck)

  mkdir -p test-results
  # CI passes through untouched: vitest then disables watch mode and interactive output.
  step tests pnpm exec vitest run --reporter=default --reporter=json --outputFile.json="$REPORT" || failed+=(vitest)
else
  echo "vitest is not installed; skipping lint, typecheck and tests" >&2
fi

if ((${#failed[@]})); then
  echo "FAILED: ${failed[*]}" >&2
fi
failed_checks=0
for step in "${failed[@]}"; do [[ "$step" == vitest ]] || failed_checks=$((failed_checks + 1)); done
# Nothing may print after this line.
node scripts/summarize-tests.mjs "$REPORT" "$failed_checks"
((${#failed[@]} == 0))
