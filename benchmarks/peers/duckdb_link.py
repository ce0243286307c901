#!/usr/bin/env python3
"""DuckDB spatial peer of `flyr-link run --only links`: the query a GIS engineer would write.

    duckdb_link.py BUILDINGS ADDRESSES OUT.csv [--srid EPSG] [--max-distance 30]

BUILDINGS and ADDRESSES are FlatGeobuf, GeoJSON (or anything GDAL reads: ST_Read) or GeoParquet
(`.parquet`: read_parquet), in longitude/latitude (or the CRS their geometry type carries).

1. an in-memory DuckDB 1.5.5 with its default settings (every core: `threads` = the CPU count);
   the spatial extension LOADed from the file inside the pip-installed `duckdb-extension-spatial`
   wheel, nothing installed or downloaded (autoinstall/autoload off, the extension directory set to
   the wheel's own);
2. both layers read into tables, projected with ST_Transform to the UTM zone EPSG:SRID (the
   harness passes the zone of the city's centre; by default the zone of the addresses' extent
   centre, as the PostGIS peer and GeoPandas' estimate_utm_crs pick it);
3. containment: a spatial join on ST_Covers(building, address); an address covered by several
   footprints keeps the smallest footprint, then the smallest building id;
4. the addresses not contained: a spatial join on ST_DWithin(address, building, M), the nearest
   building kept (ties broken by building id);
5. COPY ... TO OUT.csv: address_id,building_id,match_method,confidence,distance_m, ordered by
   address id (confidence 1.0 for containment, 0.75 for proximity, as the harness scores every peer).
"""
import argparse
import importlib.util
import pathlib
import re
import sys
import time

import duckdb


def spatial_extension():
    """The spatial.duckdb_extension file shipped inside the duckdb-extension-spatial wheel."""
    spec = importlib.util.find_spec("duckdb_extension_spatial")
    if spec is None or spec.origin is None:
        sys.exit("duckdb_link.py: the duckdb-extension-spatial wheel is not installed "
                 f"(pip install duckdb-extension-spatial=={duckdb.__version__})")
    root = pathlib.Path(spec.origin).parent / "extensions"
    found = sorted(root.glob(f"v{duckdb.__version__}/**/spatial.duckdb_extension"))
    if not found:
        sys.exit(f"duckdb_link.py: no spatial.duckdb_extension for DuckDB v{duckdb.__version__} under {root}")
    return root, found[0]


def sql_str(s):
    return "'" + str(s).replace("'", "''") + "'"


def source(con, path):
    """(FROM clause, geometry expression, its CRS) of one layer."""
    p = str(path)
    if p.lower().endswith((".parquet", ".geoparquet")):
        rel = f"read_parquet({sql_str(p)})"
    else:
        rel = f"ST_Read({sql_str(p)})"
    cols = con.sql(f"DESCRIBE SELECT * FROM {rel}").fetchall()
    names = {c[0].lower(): c[0] for c in cols}
    if "id" not in names:
        sys.exit(f"duckdb_link.py: {p}: no 'id' field")
    geom = next((c for c in cols if c[1].upper().startswith("GEOMETRY")), None)
    if geom is not None:
        m = re.match(r"GEOMETRY\('([^']+)'\)", geom[1], re.I)
        crs = m.group(1) if m else "EPSG:4326"
        expr = f'"{geom[0]}"'
    elif "geometry" in names:  # a Parquet file whose WKB column carries no GeoParquet metadata
        crs, expr = "EPSG:4326", f'ST_GeomFromWKB("{names["geometry"]}")'
    else:
        sys.exit(f"duckdb_link.py: {p}: no geometry column")
    if crs.upper() in ("OGC:CRS84", "CRS84"):
        crs = "EPSG:4326"
    return rel, expr, crs, f'"{names["id"]}"'


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

    ext_dir, ext = spatial_extension()
    con = duckdb.connect(config={
        "autoinstall_known_extensions": False,
        "autoload_known_extensions": False,
        "extension_directory": str(ext_dir),
    })
    con.execute(f"LOAD {sql_str(ext)}")
    stages["load_extension"] = time.perf_counter() - t0

    t = time.perf_counter()
    b_rel, b_geom, b_crs, b_id = source(con, args.buildings)
    a_rel, a_geom, a_crs, a_id = source(con, args.addresses)
    srid = args.srid
    if srid is None:
        lon, lat = con.sql(f"SELECT (ST_XMin(e) + ST_XMax(e)) / 2, (ST_YMin(e) + ST_YMax(e)) / 2 FROM "
                           f"(SELECT ST_Extent_Agg({a_geom}) AS e FROM {a_rel})").fetchone()
        srid = (32600 if lat >= 0 else 32700) + int((lon + 180) // 6) + 1
    utm = sql_str(f"EPSG:{srid}")
    con.execute(f"""
        CREATE TABLE buildings AS
        SELECT {b_id}::VARCHAR AS building_id,
               ST_Transform({b_geom}, {sql_str(b_crs)}, {utm}, always_xy := true) AS geom
        FROM {b_rel}""")
    con.execute(f"""
        CREATE TABLE addresses AS
        SELECT {a_id}::VARCHAR AS address_id,
               ST_Transform({a_geom}, {sql_str(a_crs)}, {utm}, always_xy := true) AS geom
        FROM {a_rel}""")
    stages["read_project"] = time.perf_counter() - t

    t = time.perf_counter()
    written = con.execute(f"""
        COPY (
          WITH exact AS (
            SELECT a.address_id, b.building_id
            FROM addresses a JOIN buildings b ON ST_Covers(b.geom, a.geom)
            QUALIFY row_number() OVER (PARTITION BY a.address_id
                                       ORDER BY ST_Area(b.geom), b.building_id) = 1
          ),
          rest AS (
            SELECT * FROM addresses WHERE address_id NOT IN (SELECT address_id FROM exact)
          ),
          near AS (
            SELECT a.address_id, b.building_id, ST_Distance(a.geom, b.geom) AS d
            FROM rest a JOIN buildings b ON ST_DWithin(a.geom, b.geom, {args.max_distance})
            QUALIFY row_number() OVER (PARTITION BY a.address_id ORDER BY d, b.building_id) = 1
          )
          SELECT address_id, building_id, 'gold_exact' AS match_method, 1.0 AS confidence,
                 0.0 AS distance_m
          FROM exact
          UNION ALL
          SELECT address_id, building_id, 'gold_proximity', 0.75, round(d, 2) FROM near
          ORDER BY address_id
        ) TO {sql_str(args.out)} (FORMAT csv, HEADER)""").fetchone()[0]
    stages["link_write"] = time.perf_counter() - t

    n_a, n_b = (con.sql(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("addresses", "buildings"))
    print("duckdb %s (spatial %s, %s threads): %d addresses, %d buildings, EPSG:%d -> %d links; %s" % (
        duckdb.__version__,
        con.sql("SELECT extension_version FROM duckdb_extensions() WHERE extension_name = 'spatial'").fetchone()[0],
        con.sql("SELECT current_setting('threads')").fetchone()[0], n_a, n_b, srid, written,
        " ".join("%s %.2fs" % kv for kv in stages.items())), file=sys.stderr)


if __name__ == "__main__":
    main()
