#!/usr/bin/env bash
# A throwaway PostgreSQL 15 + PostGIS 3 server for the tests.
#
#   scripts/pg-test-server.sh start DIR   initdb a cluster in DIR, start it on 127.0.0.1 (port 55432, or
#                                         the next free one), create database flyr_test with postgis,
#                                         print its conninfo (postgresql://postgres@127.0.0.1:PORT/flyr_test)
#   scripts/pg-test-server.sh stop DIR    stop that server and remove DIR
#
# initdb refuses to run as root: as root the cluster belongs to the `postgres` system user (made by
# Debian's postgresql package) and every server command runs through runuser.
set -euo pipefail
cmd=${1:-}
dir=${2:-}
if [ -z "$cmd" ] || [ -z "$dir" ]; then
  echo "usage: $0 start|stop DIR" >&2
  exit 2
fi
bindir=${PG_BINDIR:-$(ls -d /usr/lib/postgresql/15/bin 2>/dev/null || dirname "$(command -v initdb)")}
as_owner=()
if [ "$(id -u)" -eq 0 ]; then
  id postgres >/dev/null 2>&1 || { echo "no 'postgres' user to own the test cluster (install postgresql-15)" >&2; exit 1; }
  as_owner=(runuser -u postgres --)
fi

case "$cmd" in
start)
  [ -x "$bindir/initdb" ] || { echo "initdb not found in $bindir (install postgresql-15)" >&2; exit 1; }
  mkdir -p "$dir"
  chmod 755 "$dir"
  data="$dir/data"
  mkdir -p "$data"
  [ ${#as_owner[@]} -eq 0 ] || chown postgres: "$data" "$dir"
  "${as_owner[@]}" "$bindir/initdb" -D "$data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; exit 1; }
  port=${FLYR_PG_PORT:-55432}
  # The first free loopback port from $port on: several checkouts may test at once.
  while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((port + 1)); done
  "${as_owner[@]}" "$bindir/pg_ctl" -D "$data" -l "$dir/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories='$dir' -c max_wal_size=4GB -c shared_buffers=256MB -c maintenance_work_mem=256MB" \
    start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
  echo "$port" >"$dir/port"
  psql=("$bindir/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres)
  "${psql[@]}" -d postgres -c "CREATE DATABASE flyr_test" >/dev/null
  "${psql[@]}" -d flyr_test -c "CREATE EXTENSION postgis" >/dev/null ||
    { echo "could not create the postgis extension (install postgresql-15-postgis-3)" >&2; exit 1; }
  echo "postgresql://postgres@127.0.0.1:$port/flyr_test"
  ;;
stop)
  if [ -f "$dir/data/PG_VERSION" ]; then
    "${as_owner[@]}" "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
  ;;
*)
  echo "usage: $0 start|stop DIR" >&2
  exit 2
  ;;
esac
