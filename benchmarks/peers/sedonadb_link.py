#!/usr/bin/env python3
"""SedonaDB peer of `flyr-link run --only links`: the same query as the DuckDB peer, in SedonaDB.

    sedonadb_link.py BUILDINGS ADDRESSES OUT.csv [--srid EPSG] [--max-distance 30]

BUILDINGS and ADDRESSES are FlatGeobuf, GeoJSON (or anything GDAL reads: read_pyogrio) or
GeoParquet (`.parquet`: read_parquet), with a CRS (the harness's cities are EPSG:4326).

1. `sedonadb.connect()` (SedonaDB 0.5.0, Apache DataFusion inside: every core by default; PROJ from
   pyproj's wheel, as the package configures itself on import; nothing downloaded);
2. both layers read and projected with ST_Transform to the UTM zone EPSG:SRID (the harness passes
   the zone of the city's centre; by default the zone of the addresses' extent centre), kept in
   memory (to_memtable: the DuckDB peer's CREATE TABLE);
3. containment: a spatial join on ST_Covers(building, address); an address covered by several
   footprints keeps the smallest footprint, then the smallest building id;
4. the addresses not contained: a spatial join on ST_DWithin(address, building, M), the nearest
   building kept (ties broken by building id);
5. written to OUT.csv: address_id,building_id,match_method,confidence,distance_m, ordered by
   address id (confidence 1.0 for containment, 0.75 for proximity, as the harness scores every peer).
"""
import argparse
import os
import sys
import time

import pyarrow as pa
import sedonadb


def read(sd, path):
    p = str(path)
    if p.lower().endswith((".parquet", ".geoparquet")):
        return sd.read_parquet(p)
    return sd.read_pyogrio(p)


def geometry_column(df, path):
    schema = df.schema
    for i in range(len(df.columns)):
        f = schema.field(i)
        if str(f.type).startswith("SedonaType geometry") or str(f.type).startswith("geometry"):
            return f.name
    sys.exit(f"sedonadb_link.py: {path}: no geometry column (columns {df.columns})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("buildings")
    ap.add_argument("addresses")
    ap.add_argument("out")
    ap.add_argument("--srid", type=int, default=None, help="UTM zone EPSG code (default: from the addresses' extent)")
    ap.add_argument("--max-distance", type=float, default=30.0)
    args = ap.parse_args()
    t0 = time.perf_counter()
    stages = {}

    sd = sedonadb.connect()
    tables = {}
    for name, path in (("buildings_src", args.buildings), ("addresses_src", args.addresses)):
        df = read(sd, path)
        if "id" not in df.columns:
            sys.exit(f"sedonadb_link.py: {path}: no 'id' field")
        tables[name] = geometry_column(df, path)
        df.to_view(name)
    srid = args.srid
    if srid is None:
        g = tables["addresses_src"]
        ext = sd.sql(f'SELECT min(ST_X("{g}")) AS x0, max(ST_X("{g}")) AS x1, min(ST_Y("{g}")) AS y0, '
                     f'max(ST_Y("{g}")) AS y1 FROM addresses_src')
        ext = pa.table(ext).to_pylist()[0]  # (through the Arrow C stream: no geoarrow needed)
        lon, lat = (ext["x0"] + ext["x1"]) / 2, (ext["y0"] + ext["y1"]) / 2
        srid = (32600 if lat >= 0 else 32700) + int((lon + 180) // 6) + 1
    for layer, key in (("buildings", "building_id"), ("addresses", "address_id")):
        g = tables[f"{layer}_src"]
        sd.sql(f"SELECT CAST(id AS VARCHAR) AS {key}, ST_Transform(\"{g}\", 'EPSG:{srid}') AS geom "
               f"FROM {layer}_src").to_memtable().to_view(layer)
    stages["read_project"] = time.perf_counter() - t0

    t = time.perf_counter()
    links = sd.sql(f"""
        WITH exact AS (
          SELECT address_id, building_id FROM (
            SELECT a.address_id, b.building_id,
                   row_number() OVER (PARTITION BY a.address_id
                                      ORDER BY ST_Area(b.geom), b.building_id) AS rn
            FROM addresses a JOIN buildings b ON ST_Covers(b.geom, a.geom)
          ) WHERE rn = 1
        ),
        rest AS (
          SELECT * FROM addresses WHERE address_id NOT IN (SELECT address_id FROM exact)
        ),
        near AS (
          SELECT address_id, building_id, d FROM (
            SELECT a.address_id, b.building_id, ST_Distance(a.geom, b.geom) AS d,
                   row_number() OVER (PARTITION BY a.address_id
                                      ORDER BY ST_Distance(a.geom, b.geom), b.building_id) AS rn
            FROM rest a JOIN buildings b ON ST_DWithin(a.geom, b.geom, {args.max_distance})
          ) WHERE rn = 1
        )
        SELECT address_id, building_id, 'gold_exact' AS match_method, 1.0 AS confidence,
               0.0 AS distance_m
        FROM exact
        UNION ALL
        SELECT address_id, building_id, 'gold_proximity', 0.75, round(d, 2) FROM near
        ORDER BY address_id""")
    tmp = args.out + ".tmp.csv"
    links.to_csv(tmp)
    os.replace(tmp, args.out)
    stages["link_write"] = time.perf_counter() - t

    print("sedonadb %s (DataFusion, %d CPUs): EPSG:%d; %s" % (
        sedonadb.__version__, os.cpu_count(), srid,
        " ".join("%s %.2fs" % kv for kv in stages.items())), file=sys.stderr)


if __name__ == "__main__":
    main()
