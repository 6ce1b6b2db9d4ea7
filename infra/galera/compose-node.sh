#!/bin/bash
# Entry point of a Galera node in docker-compose.yml's `galera` profile: the image's own entry point,
# with --wsrep-new-cluster added on the bootstrap node (GALERA_BOOTSTRAP=1) when its data directory
# has no cluster state yet, or when grastate.dat says it was the last node to stop
# (safe_to_bootstrap: 1). Otherwise it joins the others (gcomm:// of all three).
set -euo pipefail
args=(mariadbd --wsrep-cluster-address=gcomm://galera1,galera2,galera3
  --wsrep-sst-method=mariabackup "--wsrep-sst-auth=root:${MARIADB_ROOT_PASSWORD}" "$@")
state=/var/lib/mysql/grastate.dat
if [[ "${GALERA_BOOTSTRAP:-0}" == 1 ]] && { [[ ! -s "$state" ]] || grep -q '^safe_to_bootstrap: *1' "$state"; }; then
  args+=(--wsrep-new-cluster)
fi
exec docker-entrypoint.sh "${args[@]}"
