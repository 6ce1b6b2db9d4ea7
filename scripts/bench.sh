#!/usr/bin/env bash
# pnpm bench [shortener|images|thumbs|all]... — runs apps/<name>/dist/bench/main.js where present.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

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

bash scripts/bootstrap.sh

status=0
for name in "${targets[@]}"; do
  # The thumbnail benchmark measures the worker's rendering, so it lives with the worker.
  app="$name"
  [[ "$name" == thumbs ]] && app=thumbs-worker
  entry="apps/$app/dist/bench/main.js"
  if [[ -f "$entry" ]]; then
    echo "== bench $name"
    node "$entry" || status=$?
  else
    echo "no benchmark for $name yet"
  fi
done
exit "$status"
