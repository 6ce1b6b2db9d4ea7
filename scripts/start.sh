#!/usr/bin/env bash
# npm start: bootstrap, demo data + API keys, then nginx (media), the three services and
# WORKERS (default 1) thumbs workers in the foreground with prefixed logs. Ctrl-C/SIGTERM (any
# number of them) stops each program once, in order, and waits for it (see STOP_ORDER).
# `npm start --demo` (or `npm start -- --demo`, or BOARD_URL=demo) also runs the local demo board,
# for a first run without internet: thumbs and the workers use it instead of the real image board.
# What a start keeps (its keys, nginx's config, the demo board's files) lives in PAWLINK_DATA_DIR
# (default data/ in the checkout), one demo key and one images-service key per DB_PREFIX.
set -euo pipefail

START_MS="${EPOCHREALTIME/./}"
START_MS="${START_MS:0:-3}"

for arg in "$@"; do
  case "$arg" in
    --demo) export BOARD_URL=demo ;;
    *) printf '[start] unknown option %s (known: --demo)\n' "$arg" >&2; exit 2 ;;
  esac
done
# `npm start --demo` (without `--`) reaches this script as npm_config_demo=true, not as an argument.
case "${npm_config_demo:-}" in
  "" | false) ;;
  true) export BOARD_URL=demo ;;
  *) printf '[start] --demo takes no value (got --demo=%s)\n' "$npm_config_demo" >&2; exit 2 ;;
esac

# shellcheck source=scripts/bootstrap.sh
. "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh" # cds to the repo root, exports the env defaults

say() { printf '[start] %s\n' "$*" >&2; }
# bs_timed's lines (one a step, with its time) say they are the start's from here on.
bs_log() { say "$@"; }

WORKERS="${WORKERS:-1}"
[[ "$WORKERS" =~ ^[0-9]+$ ]] || bs_die "WORKERS must be a number, got '$WORKERS'"
DATA_DIR="$PAWLINK_DATA_DIR"
mkdir -p "$DATA_DIR" || bs_die "cannot create PAWLINK_DATA_DIR $DATA_DIR"
KEYS_DIR="$DATA_DIR/keys"

# The images service's shortener key goes to the images process only: one given in .env or the
# environment is taken out of the environment every other process inherits.
IMAGES_SHORTENER_KEY="${SHORTENER_KEY:-}"
unset SHORTENER_KEY

# ---------------------------------------------------------------- demo data
seed_demo() {
  local out
  if ! out="$(bin/admin images seed-demo 2>&1)"; then
    say "WARNING: 'bin/admin images seed-demo' failed; continuing without demo images:"
    printf '%s\n' "$out" | tail -n 5 >&2
    return 0
  fi
  say "$(printf '%s\n' "$out" | tail -n 1)"
}
bs_timed "seed the demo images" seed_demo

# ---------------------------------------------------------------- secrets key
# PAWLINK_SECRETS_KEY seals each API key's webhook secret in the database (AES-256-GCM): bin/admin
# (which makes the secrets) and the workers (which sign callbacks with them) need the same one.
# One given in .env or the environment wins; otherwise one is made at the first start and kept in
# KEYS_DIR/secrets.key (mode 600) for every later start with this data dir.
secrets_key() {
  if [[ -n "${PAWLINK_SECRETS_KEY:-}" ]]; then
    say "secrets key: PAWLINK_SECRETS_KEY from .env or the environment"
    return 0
  fi
  local file="$KEYS_DIR/secrets.key"
  mkdir -p "$KEYS_DIR" && chmod 700 "$KEYS_DIR"
  # Under the keys' lock: two starts at once keep one key.
  flock "$KEYS_DIR/.lock" bash -c '[[ -s "$1" ]] && exit 0
    umask 077
    node -e "process.stdout.write(require(\"node:crypto\").randomBytes(32).toString(\"hex\"))" >"$1.tmp" && mv "$1.tmp" "$1"' _ "$file" ||
    bs_die "could not make $file"
  PAWLINK_SECRETS_KEY="$(<"$file")"
  [[ "$PAWLINK_SECRETS_KEY" =~ ^[0-9a-f]{64}$ ]] || bs_die "$file does not hold a secrets key (64 hex digits); remove it to make a new one (webhook secrets made with the old one must then be made again)"
  export PAWLINK_SECRETS_KEY
}
bs_timed "secrets key (one per data dir: seals webhook secrets)" secrets_key

# ---------------------------------------------------------------- API keys
# One key per file in KEYS_DIR, per database prefix: `bin/admin apikey ensure` prints the stored key
# while it is active (not revoked, not disabled, with its flags) and only otherwise makes one. A
# failure of the command mints nothing; flock keeps two starts on one data dir from both minting.
# Sets KEY to the key, or to "" with a warning.
KEY=""
ensure_key() {
  local what="$1" file="$2" out errors status=0
  shift 2
  mkdir -p "$KEYS_DIR" && chmod 700 "$KEYS_DIR"
  errors="$(mktemp)"
  # stdout only: the key is its last line (a warning on stderr must not take that place).
  out="$(flock "$KEYS_DIR/.lock" bin/admin apikey ensure --key-file "$file" "$@" 2>"$errors")" || status=$?
  if ((status != 0)) || [[ -z "$out" ]]; then
    say "WARNING: could not get the $what key (bin/admin apikey ensure exited $status):"
    tail -n 5 "$errors" >&2
    rm -f "$errors"
    KEY=""
    return 0
  fi
  rm -f "$errors"
  KEY="${out##*$'\n'}"
  # Every line but the key: reused or created, and any other such keys left active.
  [[ "$out" == *$'\n'* ]] && printf '%s\n' "${out%$'\n'*}" | sed "s/^/[start] $what key: /" >&2
  return 0
}

demo_key() {
  ensure_key demo "$KEYS_DIR/${DB_PREFIX}demo.key" --name-prefix demo --contact demo@localhost \
    --flags shortener,thumbs,images_bulk,admin
  DEMO_KEY="${KEY:-(none: see the warning above)}"
}

# Images makes each image's short link through the shortener's API with a key of its own (flag
# shortener, no rate limit); a SHORTENER_KEY set in .env or the environment wins.
SHORT_LINKS="on"
images_service_key() {
  if [[ -n "$IMAGES_SHORTENER_KEY" ]]; then
    say "images-service key: SHORTENER_KEY from .env or the environment"
    return 0
  fi
  local file="$KEYS_DIR/${DB_PREFIX}images-service.key" legacy="$DATA_DIR/images-shortener.key"
  # Where starts before this one kept it.
  if [[ ! -e "$file" && -s "$legacy" ]]; then mkdir -p "$KEYS_DIR" && mv "$legacy" "$file"; fi
  ensure_key images-service "$file" --name-prefix images-service --contact images@localhost \
    --flags shortener --rate-limit-route 0 --rate-limit-global 0
  IMAGES_SHORTENER_KEY="$KEY"
  if [[ -z "$IMAGES_SHORTENER_KEY" ]]; then
    SHORT_LINKS="off (no images service key; images keep shortURL null)"
    say "WARNING: no images service key; images get no short links"
  fi
}

api_keys() {
  demo_key
  images_service_key
}
bs_timed "API keys (one demo and one images-service key per data dir and DB_PREFIX)" api_keys

# The image files are served on a local address here, which the shortener refuses as a target
# unless told they are this system's own.
export SHORTENER_PRIVATE_TARGET_PREFIXES="${SHORTENER_PRIVATE_TARGET_PREFIXES:-$IMAGES_MEDIA_URL}"

# ---------------------------------------------------------------- nginx config
# True when `user` can list and enter MEDIA_DIR and its thumbs/ and images/.
media_readable_by() {
  local user="$1" dir
  for dir in "$MEDIA_ABS" "$MEDIA_ABS/thumbs" "$MEDIA_ABS/images"; do
    runuser -u "$user" -- test -r "$dir" -a -x "$dir" || return 1
  done
}

# The first directory on the way to MEDIA_DIR that `user` cannot enter.
media_blocking_dir() {
  local user="$1" dir="" part parts
  IFS=/ read -ra parts <<<"${MEDIA_ABS#/}"
  for part in "${parts[@]}"; do
    dir="$dir/$part"
    runuser -u "$user" -- test -x "$dir" || { printf '%s\n' "$dir"; return 0; }
  done
}

# Renders nginx's config for MEDIA_DIR into DATA_DIR/nginx and has nginx check it.
prepare_nginx() {
  NGINX_DIR="$DATA_DIR/nginx"
  mkdir -p "$NGINX_DIR"
  MEDIA_ABS="$(cd "$MEDIA_DIR" && pwd -P)"

  # nginx workers never run as root. Started as root, nginx runs them as NGINX_USER (default www-data,
  # else nobody); started by anyone else, as that user. Either way they must be able to read MEDIA_DIR.
  NGINX_USER_DIRECTIVE=""
  if [[ "$(id -u)" == 0 ]]; then
    NGINX_USER_DIRECTIVE="${NGINX_USER:-$(node --input-type=module -e '
      import { unprivilegedNginxUser } from "./infra/nginx/render-media-conf.mjs";
      console.log(unprivilegedNginxUser());')}"
    nginx_user="${NGINX_USER_DIRECTIVE%% *}"
    [[ "$nginx_user" != root && "$nginx_user" != 0 ]] || bs_die "NGINX_USER must not be root: nginx workers never run as root"
    id "$nginx_user" >/dev/null 2>&1 || bs_die "NGINX_USER '$nginx_user' does not exist"
    if ! command -v runuser >/dev/null 2>&1; then
      say "WARNING: runuser is missing; cannot check that nginx workers ($nginx_user) can read $MEDIA_ABS"
    elif ! media_readable_by "$nginx_user"; then
      # Ours to open: the media dir and its two subdirectories (the bootstrap made them).
      chmod o+rx "$MEDIA_ABS" "$MEDIA_ABS/thumbs" "$MEDIA_ABS/images"
      if ! media_readable_by "$nginx_user"; then
        bs_die "nginx workers run as '$nginx_user' (never root), who cannot reach $MEDIA_ABS: $(media_blocking_dir "$nginx_user") is closed to other users (a checkout under /root is). Set MEDIA_DIR outside it (e.g. MEDIA_DIR=/srv/pawlink/media), run 'chmod o+x' on that directory, or set NGINX_USER to a user who can read MEDIA_DIR."
      fi
    fi
  fi
  node --input-type=module -e '
    import { writeFileSync } from "node:fs";
    import { renderMediaNginxConf } from "./infra/nginx/render-media-conf.mjs";
    const [mediaDir, port, runDir, user] = process.argv.slice(1);
    writeFileSync(`${runDir}/nginx.conf`,
      renderMediaNginxConf({ mediaDir, port: Number(port), runDir, ...(user ? { user } : {}) }));
  ' "$MEDIA_ABS" "$MEDIA_PORT" "$NGINX_DIR" "$NGINX_USER_DIRECTIVE"
  NGINX_BIN="$(command -v nginx || echo /usr/sbin/nginx)"
  if ! nginx_check="$("$NGINX_BIN" -t -c "$NGINX_DIR/nginx.conf" -e "$NGINX_DIR/error.log" 2>&1)"; then
    printf '%s\n' "$nginx_check" >&2
    bs_die "nginx rejected $NGINX_DIR/nginx.conf"
  fi
}
bs_timed "nginx config (media on port $MEDIA_PORT)" prepare_nginx

# ---------------------------------------------------------------- processes
# Each program writes its pid before it execs (the shell concurrently runs it with becomes the
# program), so the stop below signals each one itself, once, in order.
RUN_DIR="$(mktemp -d "${TMPDIR:-/tmp}/pawlink-start.XXXXXX")" || bs_die "cannot create a run directory"
trap 'rm -rf "$RUN_DIR"' EXIT
run_as() { printf 'echo $$ >%q; ' "$RUN_DIR/$1.pid"; }
# concurrently hands its environment to every command (through a shell, which each replaces
# itself with its program): the images service's SHORTENER_KEY is given to concurrently alone,
# and every other program starts without it.
without_key="exec env -u SHORTENER_KEY"
# HTTP_SERVICE_NODE_FLAGS (packages/service-kit/src/runtime/http-service-node-flags.ts): a larger young generation.
http_node="node --max-semi-space-size=64"
names=(nginx shortener images thumbs)
stop_board=""
cmds=(
  "$(run_as nginx)$without_key $NGINX_BIN -c $NGINX_DIR/nginx.conf -e $NGINX_DIR/error.log"
  "$(run_as shortener)$without_key $http_node apps/shortener/dist/main.js"
  "$(run_as images)exec $http_node apps/images/dist/main.js"
  "$(run_as thumbs)$without_key $http_node apps/thumbs/dist/main.js"
)
if [[ "${BOARD_URL,,}" == demo ]]; then
  # Loopback only; its files are made at first start (ffmpeg, sharp) and kept in DATA_DIR/demo-board.
  export DEMO_BOARD_PORT="${DEMO_BOARD_PORT:-3009}" DEMO_BOARD_DIR="${DEMO_BOARD_DIR:-$DATA_DIR/demo-board}"
  names+=(board)
  stop_board=" board"
  cmds+=("$(run_as board)$without_key node packages/board/dist/demo/main.js")
fi
workers=()
# WORKER_METRICS_PORT (unset: no worker metrics listener) is the first worker's; each next one takes the next port.
[[ -z "${WORKER_METRICS_PORT:-}" || "$WORKER_METRICS_PORT" =~ ^[0-9]+$ ]] ||
  bs_die "WORKER_METRICS_PORT must be a port number, got '$WORKER_METRICS_PORT'"
for ((i = 1; i <= WORKERS; i++)); do
  names+=("worker$i")
  workers+=("worker$i")
  worker_metrics=""
  [[ -n "${WORKER_METRICS_PORT:-}" ]] && worker_metrics=" WORKER_METRICS_PORT=$((WORKER_METRICS_PORT + i - 1))"
  cmds+=("$(run_as "worker$i")$without_key$worker_metrics node apps/thumbs-worker/dist/main.js")
done
for f in apps/{shortener,images,thumbs,thumbs-worker}/dist/main.js packages/board/dist/demo/main.js; do
  [[ -f "$f" ]] || bs_die "$f is missing (did the build produce it?)"
done

# The stop, in this order, each step once its programs have exited: first what uses the others
# (images' short-link filler calls the shortener, the workers download from the demo board), then
# the shortener and the demo board, then nginx. MariaDB/MySQL and Redis are not the start's: they
# keep running, so every service's last flush and move reach them.
STOP_ORDER=("images thumbs${workers[*]:+ ${workers[*]}}" "shortener$stop_board" "nginx")
# How long a step may take before what is left of it is killed: the longest graceful stop of its
# programs (SHUTDOWN_LAST_CALL_MS + SHUTDOWN_TIMEOUT_MS; a worker's THUMBS_JOB_TIMEOUT_MS on top,
# defaults as in packages/service-kit/src/base-config.ts and apps/thumbs-worker/src/config.ts) and 5 s.
SERVICE_GRACE_MS=$((${SHUTDOWN_LAST_CALL_MS:-1000} + ${SHUTDOWN_TIMEOUT_MS:-10000} + 5000))
WORKER_GRACE_MS=$((SERVICE_GRACE_MS + ${THUMBS_JOB_TIMEOUT_MS:-120000}))

# What runs from here on uses builtins only: a process it started (sleep, a command
# substitution's subshell) would be in the start's process group, and a second group signal would
# kill it, failing the step under `set -e`.
# Sets PID to the pid program $1 wrote, or "" when it has not started yet.
read_pid() {
  PID=""
  if [[ -s "$RUN_DIR/$1.pid" ]]; then read -r PID <"$RUN_DIR/$1.pid" || PID=""; fi
  return 0
}
alive() { [[ -n "$1" ]] && kill -0 "$1" 2>/dev/null; }
# Sets NOW_MS to the time in unix ms (bs_now_ms without its command substitution).
now_ms() {
  NOW_MS="${EPOCHREALTIME/./}"
  NOW_MS="${NOW_MS:0:-3}"
}
# Waits $1 seconds, or less when a signal comes: `read -t` on a FIFO nobody writes to.
mkfifo "$RUN_DIR/tick"
exec {TICK_FD}<>"$RUN_DIR/tick"
tick() { read -r -t "$1" -u "$TICK_FD" _ || true; }

# Sends SIGTERM once to each program of one step that still runs, and waits until they have exited.
stop_step() {
  local name grace_ms="$SERVICE_GRACE_MS" deadline left=()
  declare -A pids=()
  for name in $1; do
    read_pid "$name"
    alive "$PID" || continue
    [[ "$name" == worker* ]] && grace_ms="$WORKER_GRACE_MS"
    kill -TERM "$PID" 2>/dev/null && pids[$name]="$PID"
  done
  now_ms
  deadline=$((NOW_MS + grace_ms))
  while :; do
    left=()
    for name in "${!pids[@]}"; do alive "${pids[$name]}" && left+=("$name"); done
    ((${#left[@]})) || return 0
    now_ms
    if ((NOW_MS > deadline)); then
      say "WARNING: ${left[*]} still running $((grace_ms / 1000)) s after SIGTERM; killing"
      for name in "${left[@]}"; do kill -KILL "${pids[$name]}" 2>/dev/null; done
      return 0
    fi
    tick 0.1
  done
}

banner() {
  # Waits for every service (and the demo board), then prints where things are, one example each
  # and how long the start took (from START_MS; the services' part from SERVICES_MS).
  # Run in the background: exec makes BPID the banner itself, so stopping BPID stops it.
  DEMO_KEY="$DEMO_KEY" WORKERS="$WORKERS" MEDIA_PORT="$MEDIA_PORT" SHORT_LINKS="$SHORT_LINKS" \
    START_MS="$START_MS" SERVICES_MS="$(bs_now_ms)" exec node scripts/start-banner.mjs
}

IFS=,
name_list="${names[*]}"
unset IFS

CPID="" BPID="" STOP_SIGNAL=""
# The handler stays: a second signal (a process group's SIGTERM and npm's copy of it, a second
# Ctrl-C) joins the stop under way instead of cutting it short.
on_signal() {
  [[ -n "$STOP_SIGNAL" ]] && return 0
  STOP_SIGNAL="$1"
  # A signal before concurrently started: nothing else to stop.
  [[ -n "$CPID" ]] || exit 143
}
trap 'on_signal INT' INT
trap 'on_signal TERM' TERM
trap 'on_signal HUP' HUP

say "start the services (${name_list//,/, }) ..."
# In a session of its own (setsid): a signal to the start's process group (Ctrl-C, `kill --
# -<pgid>`) reaches the start alone, which then stops each program once and in order. Neither
# concurrently's --kill-others nor its own signal handling sends them a signal of its own.
SHORTENER_KEY="$IMAGES_SHORTENER_KEY" setsid --wait node_modules/.bin/concurrently --prefix "[{name}]" \
  --names "$name_list" --prefix-colors "gray,cyan,magenta,yellow,green" -- "${cmds[@]}" &
CPID=$!
banner &
BPID=$!

# Until a signal, or a program that exits on its own (then the others are stopped too, as
# --kill-others did).
ended=""
while [[ -z "$STOP_SIGNAL" ]] && alive "$CPID"; do
  for name in "${names[@]}"; do
    read_pid "$name"
    if [[ -n "$PID" ]] && ! alive "$PID"; then
      ended="$name"
      break 2
    fi
  done
  tick 0.5
done
if [[ -n "$ended" ]]; then
  say "$ended exited; stopping the others"
elif [[ -n "$STOP_SIGNAL" ]]; then
  say "SIG$STOP_SIGNAL: stopping ${STOP_ORDER[0]// /, }, then ${STOP_ORDER[1]// /, }, then nginx"
fi
for step in "${STOP_ORDER[@]}"; do stop_step "$step"; done
kill -TERM "$BPID" 2>/dev/null || true
wait "$BPID" 2>/dev/null || true
# A signal interrupts `wait`; bash keeps the status of a child it has reaped for the last one.
while alive "$CPID"; do wait "$CPID" 2>/dev/null || true; done
status=0
wait "$CPID" 2>/dev/null || status=$?
[[ -n "$ended" && "$status" == 0 ]] && status=1
exit "$status"
