#!/usr/bin/env bash
# npm start: bootstrap, demo data + API key, then nginx (media), the three services and
# WORKERS (default 1) thumbs workers in the foreground with prefixed logs. Ctrl-C/SIGTERM stops all.
# `npm start -- --demo` (or BOARD_URL=demo) also runs the local demo board, for a first run
# without internet: thumbs and the workers use it instead of the real image board.
set -euo pipefail

for arg in "$@"; do
  case "$arg" in
    --demo) export BOARD_URL=demo ;;
    *) printf '[start] unknown option %s (known: --demo)\n' "$arg" >&2; exit 2 ;;
  esac
done

# shellcheck source=scripts/bootstrap.sh
. "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh" # cds to the repo root, exports the env defaults

say() { printf '[start] %s\n' "$*" >&2; }

WORKERS="${WORKERS:-1}"
[[ "$WORKERS" =~ ^[0-9]+$ ]] || bs_die "WORKERS must be a number, got '$WORKERS'"

# ---------------------------------------------------------------- demo data and key
if ! seed_out="$(bin/admin images seed-demo 2>&1)"; then
  say "WARNING: 'bin/admin images seed-demo' failed; continuing without demo images:"
  printf '%s\n' "$seed_out" | tail -n 5 >&2
fi

DEMO_KEY="(none: see the warning above)"
key_name="demo-$(date +%Y%m%d%H%M%S)"
if key_out="$(bin/admin apikey create --name "$key_name" --contact demo@localhost \
  --flags shortener,thumbs,images_bulk,admin 2>/dev/null)" && [[ -n "$key_out" ]]; then
  DEMO_KEY="$(printf '%s\n' "$key_out" | tail -n 1)"
else
  say "WARNING: 'bin/admin apikey create' failed; no demo API key"
fi

# ---------------------------------------------------------------- images → shortener service key
# Images makes each image's short link through the shortener's API with a key of its own (flag
# shortener, no rate limit). Kept in data/ as "<id> <key>" and reused while bin/admin lists it as
# active; a SHORTENER_KEY set in .env or the environment wins.
SHORT_LINKS="on"
ensure_shortener_key() {
  [[ -n "${SHORTENER_KEY:-}" ]] && return 0
  local file="$PAWLINK_ROOT/data/images-shortener.key" key_id="" key="" out
  if [[ -s "$file" ]]; then
    read -r key_id key <"$file" || true
    if [[ "$key_id" =~ ^[0-9]+$ && -n "$key" ]] &&
      bin/admin apikey list 2>/dev/null | grep -Eq "^id=$key_id .* flags=([a-z_]+,)*shortener(,[a-z_]+)* active=true disabled=false"; then
      export SHORTENER_KEY="$key"
      return 0
    fi
  fi
  if ! out="$(bin/admin apikey create --name "images-service-$(date +%Y%m%d%H%M%S)" --contact images@localhost \
    --flags shortener --rate-limit-route 0 --rate-limit-global 0 2>/dev/null)"; then
    return 1
  fi
  key_id="$(printf '%s\n' "$out" | sed -n 's/^Created API key id=\([0-9]*\) .*/\1/p')"
  key="$(printf '%s\n' "$out" | tail -n 1)"
  [[ -n "$key_id" && -n "$key" ]] || return 1
  mkdir -p "$PAWLINK_ROOT/data"
  (umask 077 && printf '%s %s\n' "$key_id" "$key" >"$file")
  export SHORTENER_KEY="$key"
}
if ! ensure_shortener_key; then
  SHORT_LINKS="off (creating the images service key failed; images keep shortURL null)"
  say "WARNING: could not create the images service key; images get no short links"
fi
# The image files are served on a local address here, which the shortener refuses as a target
# unless told they are this system's own.
export SHORTENER_PRIVATE_TARGET_PREFIXES="${SHORTENER_PRIVATE_TARGET_PREFIXES:-$IMAGES_MEDIA_URL}"

# ---------------------------------------------------------------- nginx config
NGINX_DIR="$PAWLINK_ROOT/data/nginx"
mkdir -p "$NGINX_DIR"
MEDIA_ABS="$(cd "$MEDIA_DIR" && pwd -P)"

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

# ---------------------------------------------------------------- processes
names=(nginx shortener images thumbs)
cmds=(
  "$NGINX_BIN -c $NGINX_DIR/nginx.conf -e $NGINX_DIR/error.log"
  "node apps/shortener/dist/main.js"
  "node apps/images/dist/main.js"
  "node apps/thumbs/dist/main.js"
)
if [[ "${BOARD_URL,,}" == demo ]]; then
  # Loopback only; its files are made at first start (ffmpeg, sharp) and kept in data/demo-board.
  export DEMO_BOARD_PORT="${DEMO_BOARD_PORT:-3009}" DEMO_BOARD_DIR="${DEMO_BOARD_DIR:-$PAWLINK_ROOT/data/demo-board}"
  names+=(board)
  cmds+=("node packages/board/dist/demo/main.js")
fi
for ((i = 1; i <= WORKERS; i++)); do
  names+=("worker$i")
  cmds+=("node apps/thumbs-worker/dist/main.js")
done
for f in apps/{shortener,images,thumbs,thumbs-worker}/dist/main.js packages/board/dist/demo/main.js; do
  [[ -f "$f" ]] || bs_die "$f is missing (did the build produce it?)"
done

banner() {
  # Waits for every service (and the demo board), then prints where things are and one example each.
  DEMO_KEY="$DEMO_KEY" WORKERS="$WORKERS" MEDIA_PORT="$MEDIA_PORT" SHORT_LINKS="$SHORT_LINKS" node scripts/start-banner.mjs || return 0
}

IFS=,
name_list="${names[*]}"
unset IFS

node_modules/.bin/concurrently --kill-others --kill-signal SIGTERM --prefix "[{name}]" \
  --names "$name_list" --prefix-colors "gray,cyan,magenta,yellow,green" -- "${cmds[@]}" &
CPID=$!
banner &
BPID=$!

stop_all() {
  trap - INT TERM HUP
  kill -TERM "$CPID" 2>/dev/null || true
  kill -TERM "$BPID" 2>/dev/null || true
}
trap stop_all INT TERM HUP

status=0
# wait returns early when a trapped signal arrives; keep waiting until concurrently has exited.
while kill -0 "$CPID" 2>/dev/null; do
  wait "$CPID" || status=$?
done
kill -TERM "$BPID" 2>/dev/null || true
wait "$BPID" 2>/dev/null || true
exit "$status"
