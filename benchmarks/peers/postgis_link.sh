#!/usr/bin/env bash
# PostGIS peer of `flyr-link run --only links`: the seeds' own backend, used the way a GIS
# engineer would. One throwaway PostgreSQL 15 + PostGIS 3 cluster, started here and stopped at exit.
#
#   benchmarks/peers/postgis_link.sh BUILDINGS ADDRESSES OUT.csv [--srid EPSG] [--max-distance 30] [--port 55433]
#
# 1. initdb a cluster in a temporary directory (as the `postgres` user when run as root: initdb
#    refuses root), start `postgres` in the foreground of this script on 127.0.0.1:PORT, so its CPU
#    time (and its backends') is this script's children's CPU time; CREATE EXTENSION postgis;
# 2. load both layers with ogr2ogr (-t_srs EPSG:SRID, a UTM zone, metres; COPY mode);
# 3. GiST indexes on both geometry columns, ANALYZE;
# 4. one query: containment with ST_Covers (DISTINCT ON address, smallest area then id), then for
#    the addresses left the nearest building within the distance (LATERAL ... ST_DWithin ...
#    ORDER BY <-> LIMIT 1), streamed out with COPY ... TO STDOUT into OUT.csv;
# 5. stop the server and remove the cluster (trap).
# The last stderr line is `postgis-phases: setup=S load=S index=S query=S stop=S work=S initdb_cpu=S`
# (seconds; `work` = load + index + query: what the harness reports as the PostGIS wall time).
set -euo pipefail
# The whole script is one function, parsed before it runs: editing this file while a run is in
# progress cannot change what that run executes (bash otherwise reads a script as it goes).
main() {
usage() { echo "usage: $0 BUILDINGS ADDRESSES OUT.csv [--srid EPSG] [--max-distance M] [--port P]" >&2; exit 2; }
[ $# -ge 3 ] || usage
buildings=$(realpath "$1"); addresses=$(realpath "$2"); out=$(realpath -m "$3"); shift 3
srid=""; maxd=30; port=${PGLINK_PORT:-55433}
while [ $# -gt 0 ]; do
  case "$1" in
    --srid) srid=$2; shift 2;;
    --max-distance) maxd=$2; shift 2;;
    --port) port=$2; shift 2;;
    *) usage;;
  esac
done
pgbin=${PGBIN:-/usr/lib/postgresql/15/bin}
for tool in "$pgbin/initdb" "$pgbin/postgres" "$pgbin/pg_ctl" ogr2ogr ogrinfo psql; do
  command -v "$tool" >/dev/null || { echo "postgis_link.sh: $tool not found (apt-get install postgresql-15-postgis-3 gdal-bin)" >&2; exit 1; }
done
[ -f /usr/share/postgresql/15/extension/postgis.control ] || { echo "postgis_link.sh: PostGIS 3 for PostgreSQL 15 is not installed (apt-get install postgresql-15-postgis-3)" >&2; exit 1; }

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
# CPU seconds (user+sys) of this shell's children reaped so far, from bash's `times` (run in this
# shell, not in a $(...) subshell, which would report its own children).
child_cpu() { times >"$work/times"; tail -1 "$work/times" | awk '{ n = 0; for (i = 1; i <= 2; i++) { sub(/s$/, "", $i); split($i, p, "m"); n += p[1] * 60 + p[2] } printf "%.3f", n }'; }

if [ -z "$srid" ]; then
  # UTM zone of the addresses' extent centre (the CRS GeoPandas' estimate_utm_crs picks).
  extent=$(ogrinfo -ro -so -al "$addresses" | sed -n 's/^Extent: (\(.*\), \(.*\)) - (\(.*\), \(.*\))$/\1 \2 \3 \4/p' | head -1)
  [ -n "$extent" ] || { echo "postgis_link.sh: cannot read the extent of $addresses; pass --srid" >&2; exit 1; }
  srid=$(awk -v e="$extent" 'BEGIN { split(e, x, " "); lon = (x[1] + x[3]) / 2; lat = (x[2] + x[4]) / 2;
    z = int((lon + 180) / 6) + 1; printf "%d", (lat >= 0 ? 32600 : 32700) + z }')
fi

t_start=$(now)
work=$(mktemp -d /tmp/postgis-link.XXXXXX)
run_pg() { "$@"; }
if [ "$(id -u)" -eq 0 ]; then
  chown postgres: "$work" 2>/dev/null || { echo "postgis_link.sh: running as root needs a 'postgres' user" >&2; exit 1; }
  run_pg() { runuser -u postgres -- "$@"; }
fi
chmod 700 "$work"
pgpid=""
cleanup() {
  trap '' INT TERM
  # By the cluster's pid file, not by $pgpid: on SIGTERM runuser may exit before the postmaster.
  if [ -f "$work/data/postmaster.pid" ]; then
    run_pg "$pgbin/pg_ctl" -D "$work/data" -m fast -w -t 30 stop >/dev/null 2>&1 || {
      pm=$(head -1 "$work/data/postmaster.pid" 2>/dev/null || true)
      [ -n "$pm" ] && kill -QUIT "$pm" 2>/dev/null || true  # immediate shutdown
      sleep 1
    }
  fi
  [ -z "$pgpid" ] || wait "$pgpid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

child_cpu >"$work/cpu0"
run_pg "$pgbin/initdb" -D "$work/data" -U bench -A trust -E UTF8 --no-sync >"$work/initdb.log" 2>&1 \
  || { cat "$work/initdb.log" >&2; exit 1; }
child_cpu >"$work/cpu1"
initdb_cpu=$(awk -v a="$(cat "$work/cpu0")" -v b="$(cat "$work/cpu1")" 'BEGIN { printf "%.3f", b - a }')
# A throwaway cluster: no durability (fsync off), otherwise PostgreSQL's defaults but for the memory
# a bulk load and index build are usually given.
run_pg "$pgbin/postgres" -D "$work/data" -c listen_addresses=127.0.0.1 -c port="$port" \
  -c unix_socket_directories="$work" -c fsync=off -c synchronous_commit=off -c full_page_writes=off \
  -c maintenance_work_mem=512MB -c work_mem=64MB -c max_wal_size=4GB -c logging_collector=off \
  >"$work/server.log" 2>&1 &
pgpid=$!
export PGHOST=127.0.0.1 PGPORT=$port PGUSER=bench PGDATABASE=postgres
for _ in $(seq 1 100); do
  psql -Xqc 'select 1' >/dev/null 2>&1 && break
  kill -0 "$pgpid" 2>/dev/null || { cat "$work/server.log" >&2; echo "postgis_link.sh: server did not start" >&2; exit 1; }
  sleep 0.1
done
psql -Xq -v ON_ERROR_STOP=1 -c 'CREATE DATABASE bench' >/dev/null
export PGDATABASE=bench
psql -Xq -v ON_ERROR_STOP=1 -c 'CREATE EXTENSION postgis' >/dev/null
t_ready=$(now)

dsn="PG:host=127.0.0.1 port=$port user=bench dbname=bench"
for layer in buildings addresses; do
  src=$buildings; [ $layer = addresses ] && src=$addresses
  ogr2ogr -f PostgreSQL "$dsn" "$src" -nln $layer -t_srs "EPSG:$srid" -lco GEOMETRY_NAME=geom \
    -lco FID=fid -lco SPATIAL_INDEX=NONE -lco UNLOGGED=ON --config PG_USE_COPY YES -gt 100000
done
t_loaded=$(now)

psql -Xq -v ON_ERROR_STOP=1 <<'SQL'
CREATE INDEX buildings_geom ON buildings USING gist (geom);
CREATE INDEX addresses_geom ON addresses USING gist (geom);
ANALYZE buildings;
ANALYZE addresses;
SQL
t_indexed=$(now)

psql -Xq -v ON_ERROR_STOP=1 -v maxd="$maxd" >"$out" <<'SQL'
COPY (
  WITH exact AS (
    SELECT DISTINCT ON (a.id) a.id AS address_id, b.id AS building_id
    FROM addresses a JOIN buildings b ON ST_Covers(b.geom, a.geom)
    ORDER BY a.id, ST_Area(b.geom), b.id
  ),
  near AS (
    SELECT a.id AS address_id, n.id AS building_id, n.d
    FROM addresses a
    CROSS JOIN LATERAL (
      SELECT b.id, ST_Distance(b.geom, a.geom) AS d
      FROM buildings b
      WHERE ST_DWithin(b.geom, a.geom, :maxd)
      ORDER BY b.geom <-> a.geom, b.id
      LIMIT 1
    ) n
    WHERE NOT EXISTS (SELECT 1 FROM exact e WHERE e.address_id = a.id)
  )
  SELECT address_id, building_id, 'gold_exact' AS match_method, 1.0 AS confidence, 0.0 AS distance_m FROM exact
  UNION ALL
  SELECT address_id, building_id, 'gold_proximity', 0.75, round(d::numeric, 2) FROM near
  ORDER BY address_id
) TO STDOUT WITH (FORMAT csv, HEADER)
SQL
t_done=$(now)

run_pg "$pgbin/pg_ctl" -D "$work/data" -m fast -w stop >/dev/null
wait "$pgpid" || true
pgpid=""
t_stopped=$(now)
echo "postgis: $(($(wc -l <"$out") - 1)) links, EPSG:$srid" >&2
echo "postgis-phases: setup=$(elapsed "$t_start" "$t_ready") load=$(elapsed "$t_ready" "$t_loaded") index=$(elapsed "$t_loaded" "$t_indexed") query=$(elapsed "$t_indexed" "$t_done") stop=$(elapsed "$t_done" "$t_stopped") work=$(elapsed "$t_ready" "$t_done") initdb_cpu=$initdb_cpu" >&2
}
main "$@"
