#!/usr/bin/env bash
# pnpm bench [shortener|images|thumbs|all]... — each service against its ceilings (wrk), then one
# table of every endpoint; `thumbs` also runs the worker's rendering benchmark.
# BENCH_DURATION (s per run, 5), BENCH_ROUNDS (3), BENCH_CONNECTIONS (50); BENCH_ROWS (images, 1000000);
# BENCH_PROFILE_DIR: each service under test writes a CPU profile (--cpu-prof) there.
set -euo pipefail

ALL=(shortener images thumbs)
targets=()
for arg in "${@:-all}"; do
  case "$arg" in
    all) targets+=("${ALL[@]}") ;;
    shortener | images | thumbs) targets+=("$arg") ;;
    *)
      echo "usage: pnpm bench [shortener|images|thumbs|all]..." >&2
      exit 2
      ;;
  esac
done

# shellcheck source=scripts/bootstrap.sh
. "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh" # cds to the repo root, exports the env defaults (.env included)
command -v wrk >/dev/null || bs_die "wrk is missing (Debian package wrk; scripts/bootstrap.sh installs it)"

state="$(mktemp -d)"
trap 'rm -rf "$state"' EXIT
# The generator is measured once for every benchmark; each appends its rows for the summary.
export BENCH_GENERATOR_FILE="$state/generator.json" BENCH_RESULTS_FILE="$state/results.jsonl"

status=0
echo "== load generator"
node tools/bench/dist/cli.js generator || exit 1
echo
# What Express itself leaves of node:http: the bound of every endpoint served through it.
node tools/bench/dist/framework-floor/main.js || status=$?
for name in "${targets[@]}"; do
  entries=("apps/$name/bench/dist/bench/main.js")
  # The rendering benchmark measures the worker, so it lives with the worker.
  [[ "$name" == thumbs ]] && entries+=(apps/thumbs-worker/bench/dist/bench/main.js)
  for entry in "${entries[@]}"; do
    echo
    node "$entry" || status=$?
  done
done
echo
node tools/bench/dist/cli.js summary || status=$?
exit "$status"
