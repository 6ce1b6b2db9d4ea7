# shellcheck shell=bash
# The least-privilege user the Pawlink services and `bin/admin migrate` connect as. docker-compose
# mounts this directory at /docker-entrypoint-initdb.d; the mysql image sources this file once, on
# an empty data directory, with its temporary server listening on the socket only.
#
# The user may do what the migrations and the services need (tables, indexes, rows, and CREATE so
# that `migrate` creates the databases) on the schemas named <PAWLINK_DB_PREFIX>…, and nothing else:
# no global privilege, no other schema, no GRANT OPTION. Sourced by the entrypoint, so it sets no
# shell options and defines only pawlink_* names.

pawlink_init_fail() {
  printf '[pawlink initdb] %s\n' "$*" >&2
  exit 1
}

# Same escaping as the entrypoint's docker_sql_escape_string_literal: backslash, newline, quote.
pawlink_sql_string() {
  local newline=$'\n' escaped=${1//\\/\\\\}
  escaped="${escaped//$newline/\\n}"
  printf '%s' "${escaped//\'/\\\'}"
}

pawlink_init_user() {
  local user="${PAWLINK_DB_USER:-}" password="${PAWLINK_DB_PASSWORD:-}" prefix="${PAWLINK_DB_PREFIX:-}" pattern
  [[ "$user" =~ ^[A-Za-z0-9_]{1,32}$ ]] || pawlink_init_fail "PAWLINK_DB_USER must be 1-32 letters, digits or _, got '$user'"
  [[ "$user" != root ]] || pawlink_init_fail "PAWLINK_DB_USER must not be root: the services connect with least privilege"
  [[ -n "$password" ]] || pawlink_init_fail "PAWLINK_DB_PASSWORD is required"
  # An empty prefix would match every schema, mysql included.
  [[ "$prefix" =~ ^[A-Za-z0-9_]{1,40}$ ]] || pawlink_init_fail "PAWLINK_DB_PREFIX must be 1-40 letters, digits or _, got '$prefix'"
  # `_` and `%` are wildcards in a GRANT's database name: escape `_` so only the prefix itself matches.
  pattern="${prefix//_/\\_}%"
  docker_process_sql --database=mysql <<SQL
CREATE USER IF NOT EXISTS '${user}'@'%' IDENTIFIED BY '$(pawlink_sql_string "$password")';
GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, ALTER, INDEX, DROP, REFERENCES ON \`${pattern}\`.* TO '${user}'@'%';
SQL
  printf '[pawlink initdb] user %s may use the schemas %s*\n' "$user" "$prefix"
}

pawlink_init_user
