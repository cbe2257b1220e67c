#!/usr/bin/env bash
# A PostgreSQL streaming replica for Kontor's reads (docs/operations.md, "Read replica";
# decision 0047), made the way an operator would: a replication role and a physical slot on
# the primary, `pg_basebackup -R -X stream -S <slot>` into a data directory, the standby
# started on its own port, and a wait until it streams.
#
#   scripts/replica/setup.sh --dir DIR --new-primary --port 5433 [--replica-port 5434]
#       initdb's a new primary in DIR/primary (loopback only) and its replica in DIR/replica.
#   scripts/replica/setup.sh --dir DIR --primary-url postgres://admin@db1:5432/kontor --replica-port 5434
#       a replica of an existing primary (wal_level replica or logical, max_wal_senders > 0,
#       and a pg_hba.conf `replication` line for the replication role from this machine).
#
# Options: --database NAME (default kontor), --slot NAME (default kontor_replica),
# --replication-user NAME (default kontor_replicator; its password, if the primary asks for
# one, from REPLICATION_PASSWORD), --fast (test pairs only: fsync off, no initdb sync).
# It prints DATABASE_URL=… and DATABASE_REPLICA_URL=… (also written to DIR/replica.env);
# scripts/replica/teardown.sh --dir DIR stops what it started and drops the slot.
#
# The PostgreSQL programs are taken from PG_BIN, else `pg_config --bindir`, else PATH. Run as
# root, they run as the `postgres` user (initdb refuses root) and DIR is given to it.
set -euo pipefail

dir=""
new_primary=0
primary_url=""
port=""
replica_port=""
database="kontor"
slot="kontor_replica"
repl_user="kontor_replicator"
fast=0

usage() {
  sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir="$2"; shift 2 ;;
    --new-primary) new_primary=1; shift ;;
    --primary-url) primary_url="$2"; shift 2 ;;
    --port) port="$2"; shift 2 ;;
    --replica-port) replica_port="$2"; shift 2 ;;
    --database) database="$2"; shift 2 ;;
    --slot) slot="$2"; shift 2 ;;
    --replication-user) repl_user="$2"; shift 2 ;;
    --fast) fast=1; shift ;;
    -h|--help) usage ;;
    *) echo "setup.sh: unknown option $1" >&2; usage ;;
  esac
done

fail() { echo "setup.sh: $*" >&2; exit 1; }

[ -n "$dir" ] || fail "--dir is required"
if [ "$new_primary" = 1 ]; then
  [ -z "$primary_url" ] || fail "give --new-primary or --primary-url, not both"
  [ -n "$port" ] || fail "--new-primary needs --port (the new primary's port)"
  [ -n "$replica_port" ] || replica_port=$((port + 1))
else
  [ -n "$primary_url" ] || fail "give --new-primary --port N, or --primary-url URL"
  [ -n "$replica_port" ] || fail "--replica-port is required"
fi
[[ "$slot" =~ ^[a-z0-9_]{1,63}$ ]] || fail "--slot must be lower-case letters, digits and _"
[[ "$repl_user" =~ ^[a-z_][a-z0-9_]{0,62}$ ]] || fail "--replication-user must be a plain lower-case name"
[[ "$database" =~ ^[A-Za-z_][A-Za-z0-9_]{0,62}$ ]] || fail "--database must be a plain name"
for p in $port $replica_port; do
  [[ "$p" =~ ^[0-9]+$ ]] && [ "$p" -ge 1 ] && [ "$p" -le 65535 ] || fail "bad port $p"
done

if [ -z "${PG_BIN:-}" ]; then
  if command -v pg_config > /dev/null && [ -x "$(pg_config --bindir)/pg_basebackup" ]; then
    PG_BIN="$(pg_config --bindir)"
  else
    PG_BIN="$(ls -d /usr/lib/postgresql/*/bin 2> /dev/null | sort -V | tail -n 1 || true)"
    [ -x "$PG_BIN/pg_basebackup" ] || PG_BIN="$(dirname "$(command -v pg_basebackup || echo /nonexistent/x)")"
  fi
fi
for tool in initdb pg_ctl pg_basebackup psql; do
  [ -x "$PG_BIN/$tool" ] || fail "$tool not found in $PG_BIN (set PG_BIN to PostgreSQL's bin directory)"
done

# Runs a PostgreSQL program as the postgres user when we are root.
as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
[ ! -e "$dir/replica" ] || fail "$dir/replica already exists (run teardown.sh --dir $dir first)"
if [ "$(id -u)" = 0 ]; then chown postgres: "$dir"; fi
chmod 700 "$dir"

log() { echo "setup.sh: $*" >&2; }

if [ "$new_primary" = 1 ]; then
  [ ! -e "$dir/primary" ] || fail "$dir/primary already exists"
  log "initdb $dir/primary (port $port)"
  as_pg "$PG_BIN/initdb" -D "$dir/primary" -U postgres --auth=trust --encoding=UTF8 --locale=C \
    $([ "$fast" = 1 ] && echo --no-sync) > "$dir/initdb.log"
  # Loopback only, a socket in DIR; the settings a primary needs for streaming replicas.
  cat >> "$dir/primary/postgresql.conf" << EOF

# scripts/replica/setup.sh
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
wal_level = replica
max_wal_senders = 10
max_replication_slots = 10
$([ "$fast" = 1 ] && printf 'fsync = off\nfull_page_writes = off\n')
EOF
  # Trust on loopback suits a pair on one machine; across machines use scram-sha-256 and a password.
  cat > "$dir/primary/pg_hba.conf" << EOF
local   all             all                                     trust
host    all             all             127.0.0.1/32            trust
local   replication     all                                     trust
host    replication     all             127.0.0.1/32            trust
EOF
  as_pg "$PG_BIN/pg_ctl" -D "$dir/primary" -l "$dir/primary.log" -w -t 60 start > /dev/null \
    || fail "the primary did not start: $(tail -n 5 "$dir/primary.log")"
  primary_url="postgres://postgres@127.0.0.1:$port/$database"
  as_pg "$PG_BIN/psql" -X -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 \
    -c "create database $database" > /dev/null
fi

psql_primary() {
  "$PG_BIN/psql" -X -q -At -v ON_ERROR_STOP=1 -d "$primary_url" "$@"
}

# What a primary needs before it can stream to anyone.
wal_level="$(psql_primary -c 'show wal_level')" || fail "cannot connect to the primary ($primary_url)"
[ "$wal_level" = replica ] || [ "$wal_level" = logical ] \
  || fail "the primary has wal_level=$wal_level: set it to replica (ALTER SYSTEM SET wal_level = replica) and restart it"
senders="$(psql_primary -c 'show max_wal_senders')"
[ "$senders" -gt 0 ] || fail "the primary has max_wal_senders=0: raise it (e.g. 10) and restart it"

log "replication role $repl_user and slot $slot on the primary"
psql_primary << EOF > /dev/null
do \$\$ begin
  if not exists (select from pg_roles where rolname = '$repl_user') then
    create role $repl_user with login replication;
  end if;
end \$\$;
$([ -n "${REPLICATION_PASSWORD:-}" ] && echo "alter role $repl_user with password '${REPLICATION_PASSWORD//\'/\'\'}';")
select pg_create_physical_replication_slot('$slot')
 where not exists (select from pg_replication_slots where slot_name = '$slot');
EOF

# pg_basebackup connects as the replication role to the primary URL's host and port.
read -r primary_host primary_port < <(node -e 'const u = new URL(process.argv[1]); console.log(decodeURIComponent(u.hostname).replace(/^\[|\]$/g, "") || "127.0.0.1", u.port || 5432)' "$primary_url")
log "pg_basebackup from $primary_host:$primary_port into $dir/replica"
as_pg env PGPASSWORD="${REPLICATION_PASSWORD:-}" "$PG_BIN/pg_basebackup" \
  -h "$primary_host" -p "$primary_port" -U "$repl_user" \
  -D "$dir/replica" -R -X stream -S "$slot" -c fast $([ "$fast" = 1 ] && echo --no-sync) \
  || fail "pg_basebackup failed (does the primary's pg_hba.conf let $repl_user connect for replication from here?)"

# The standby's own port and socket; -R has written primary_conninfo, primary_slot_name and standby.signal.
cat >> "$dir/replica/postgresql.auto.conf" << EOF
# scripts/replica/setup.sh
port = $replica_port
listen_addresses = '127.0.0.1'
unix_socket_directories = '$dir'
hot_standby = on
hot_standby_feedback = on
cluster_name = '$slot'
EOF
as_pg "$PG_BIN/pg_ctl" -D "$dir/replica" -l "$dir/replica.log" -w -t 60 start > /dev/null \
  || fail "the replica did not start: $(tail -n 5 "$dir/replica.log")"

replica_url="postgres://postgres@127.0.0.1:$replica_port/$database"
if [ "$new_primary" != 1 ]; then
  # The replica has the primary's roles: the same user as the primary URL, on the replica's port.
  replica_url="$(node -e 'const u = new URL(process.argv[1]); u.hostname = "127.0.0.1"; u.port = process.argv[2]; console.log(u.toString())' "$primary_url" "$replica_port")"
fi

log "waiting for the replica to stream"
for _ in $(seq 1 120); do
  status="$("$PG_BIN/psql" -X -At -d "$replica_url" -c 'select status from pg_stat_wal_receiver' 2> /dev/null || true)"
  [ "$status" = streaming ] && break
  sleep 0.5
done
[ "$status" = streaming ] || fail "the replica is not streaming (status '$status'); see $dir/replica.log"

cat > "$dir/replica.env" << EOF
DATABASE_URL=$primary_url
DATABASE_REPLICA_URL=$replica_url
REPLICA_SLOT=$slot
REPLICA_NEW_PRIMARY=$new_primary
EOF
if [ "$(id -u)" = 0 ]; then chown postgres: "$dir/replica.env"; fi
grep '^DATABASE' "$dir/replica.env"
