"""Reads GeoParquet files the way a data engineer would: GeoPandas (pyarrow) and DuckDB.

For each file prints one JSON line: what GeoPandas read (rows, columns, CRS, geometry types,
bounds and, with --features, the rows as a GeoJSON FeatureCollection), what pyarrow's footer
reader says of its row groups and bbox statistics, and what DuckDB read
(rows, columns, the `geo` key-value metadata parsed, and, when DuckDB's spatial extension
can be loaded, the rows whose WKB ST_GeomFromWKB parses). Exits 1 when a reader fails.
"""
import json
import sys

import duckdb
import geopandas
import pyarrow.parquet


def with_geopandas(path, features):
    gdf = geopandas.read_parquet(path)
    out = {
        "rows": len(gdf),
        "columns": list(gdf.columns),
        "crs": gdf.crs.to_string() if gdf.crs else None,
        "geometry_types": sorted(set(gdf.geometry.geom_type.dropna())),
        "bounds": [float(v) for v in gdf.total_bounds] if len(gdf) else None,
    }
    if features:
        out["features"] = json.loads(gdf.drop(columns=["bbox"], errors="ignore").to_json(na="null", drop_id=True))
    return out


def with_pyarrow(path):
    """Row groups, and whether every row group's bbox columns carry min/max statistics."""
    md = pyarrow.parquet.ParquetFile(path).metadata
    stats = True
    for g in range(md.num_row_groups):
        for i in range(md.num_columns):
            c = md.row_group(g).column(i)
            if c.path_in_schema.startswith("bbox."):
                stats = stats and c.statistics is not None and c.statistics.has_min_max
    return {"row_groups": md.num_row_groups, "bbox_statistics": stats, "created_by": md.created_by}


def with_duckdb(path):
    con = duckdb.connect()
    rows = con.execute("SELECT count(*) FROM read_parquet(?)", [path]).fetchone()[0]
    columns = [r[0] for r in con.execute("DESCRIBE SELECT * FROM read_parquet(?)", [path]).fetchall()]
    kv = con.execute("SELECT value FROM parquet_kv_metadata(?) WHERE key = 'geo'", [path]).fetchall()
    geo = json.loads(kv[0][0].decode() if isinstance(kv[0][0], bytes) else kv[0][0]) if kv else None
    out = {"rows": rows, "columns": columns, "geo": geo, "spatial": False}
    try:
        con.execute("LOAD spatial")
        out["spatial"] = True
    except Exception:
        try:
            con.execute("INSTALL spatial; LOAD spatial")
            out["spatial"] = True
        except Exception:
            pass
    if out["spatial"]:
        out["valid_wkb"] = con.execute(
            "SELECT count(*) FROM read_parquet(?) WHERE ST_GeomFromWKB(geometry) IS NOT NULL", [path]).fetchone()[0]
    return out


def main(argv):
    features = "--features" in argv
    status = 0
    for path in [a for a in argv if a != "--features"]:
        result = {"file": path}
        try:
            result["geopandas"] = with_geopandas(path, features)
        except Exception as e:  # a reader's failure is the finding
            result["geopandas_error"] = f"{type(e).__name__}: {e}"
            status = 1
        try:
            result["pyarrow"] = with_pyarrow(path)
        except Exception as e:
            result["pyarrow_error"] = f"{type(e).__name__}: {e}"
            status = 1
        try:
            result["duckdb"] = with_duckdb(path)
        except Exception as e:
            result["duckdb_error"] = f"{type(e).__name__}: {e}"
            status = 1
        print(json.dumps(result))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
