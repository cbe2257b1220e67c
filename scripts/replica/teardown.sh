#!/usr/bin/env bash
# Undoes scripts/replica/setup.sh --dir DIR: stops the replica (and the primary when setup made
# it with --new-primary), drops the replication slot on a primary that stays, and removes DIR.
#   scripts/replica/teardown.sh --dir DIR [--keep-dir]
set -euo pipefail

dir=""
keep_dir=0
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir="$2"; shift 2 ;;
    --keep-dir) keep_dir=1; shift ;;
    *) echo "teardown.sh: unknown option $1 (usage: teardown.sh --dir DIR [--keep-dir])" >&2; exit 2 ;;
  esac
done
[ -n "$dir" ] || { echo "teardown.sh: --dir is required" >&2; exit 2; }
[ -d "$dir" ] || { echo "teardown.sh: $dir does not exist; nothing to do" >&2; exit 0; }

if [ -z "${PG_BIN:-}" ]; then
  if command -v pg_config > /dev/null && [ -x "$(pg_config --bindir)/pg_ctl" ]; then
    PG_BIN="$(pg_config --bindir)"
  else
    PG_BIN="$(ls -d /usr/lib/postgresql/*/bin 2> /dev/null | sort -V | tail -n 1 || true)"
    [ -x "$PG_BIN/pg_ctl" ] || PG_BIN="$(dirname "$(command -v pg_ctl || echo /nonexistent/x)")"
  fi
fi

as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

stop() {
  local data="$1"
  if [ -f "$data/postmaster.pid" ]; then
    as_pg "$PG_BIN/pg_ctl" -D "$data" -m immediate -w -t 30 stop > /dev/null 2>&1 || true
  fi
}

primary_url=""
slot=""
new_primary=0
if [ -f "$dir/replica.env" ]; then
  primary_url="$(sed -n 's/^DATABASE_URL=//p' "$dir/replica.env")"
  slot="$(sed -n 's/^REPLICA_SLOT=//p' "$dir/replica.env")"
  new_primary="$(sed -n 's/^REPLICA_NEW_PRIMARY=//p' "$dir/replica.env")"
fi

stop "$dir/replica"
if [ -d "$dir/primary" ]; then
  stop "$dir/primary"
elif [ "$new_primary" != 1 ] && [ -n "$primary_url" ] && [ -n "$slot" ]; then
  # A primary that stays: its slot would otherwise keep WAL for a replica that is gone.
  # The primary's walsender notices the stopped replica within moments; until then the slot is active.
  dropped=""
  for _ in $(seq 1 20); do
    dropped="$("$PG_BIN/psql" -X -q -At -d "$primary_url" \
      -c "select pg_drop_replication_slot('$slot') from pg_replication_slots where slot_name = '$slot' and not active;
          select count(*) from pg_replication_slots where slot_name = '$slot'" 2> /dev/null | tail -n 1 || true)"
    [ "$dropped" = 0 ] && break
    sleep 0.5
  done
  [ "$dropped" = 0 ] || echo "teardown.sh: could not drop slot $slot on the primary; drop it by hand" >&2
fi
if [ "$keep_dir" != 1 ]; then rm -rf "$dir"; fi
echo "teardown.sh: stopped the replica in $dir" >&2
