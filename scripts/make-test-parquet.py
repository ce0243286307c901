#!/usr/bin/env python3
"""Generates the small Parquet fixtures in Tests/GeoParquetTests/Fixtures/ (needs pyarrow >= 21).

The committed tests only read the generated files; Python is not needed to run them.

- encodings_v2_gzip.parquet: data page v2, gzip, 4 row groups, DELTA_BINARY_PACKED (int32/int64),
  DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY strings, BYTE_STREAM_SPLIT float/double, booleans,
  unsigned ints, nulls, and a struct column with an optional parent.
- encodings_v1_dict_snappy.parquet: data page v1, snappy, dictionary encoding, same values.
- delft_covering_4rg.parquet / delft_geometry_type_4rg.parquet: a subset of the 3DBAG Delft sample
  (CC BY 4.0, geoparquet/geoparquet-testing samples/buildings-3d.parquet) in 4 row groups, once with a
  GeoParquet 1.1 bbox covering column and once with the Parquet GEOMETRY logical type (geospatial
  statistics) and no covering, for row-group pruning tests.
- native_point_encoding.parquet: GeoArrow native "point" encoding with an explicit null CRS.
Values are functions of the row index i; Tests/GeoParquetTests/FixtureTests.swift recomputes them.
"""
import json
import os
import struct
import sys

import pyarrow as pa
import pyarrow.parquet as pq


HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "Tests", "GeoParquetTests", "Fixtures")
SHARED = os.environ.get("FLYR_SHARED_DATA", os.path.join(HERE, "..", "..", "shared", "data"))
N = 1000


def values():
    i32 = [None if i % 5 == 0 else i * 7 - 1000 for i in range(N)]
    i64 = [i * 1_000_000_007 - 3 for i in range(N)]
    u32 = [4_000_000_000 - i for i in range(N)]
    f32 = [None if i % 7 == 3 else i * 0.5 - 10.25 for i in range(N)]
    f64 = [i / 3.0 for i in range(N)]
    s_dba = [f"prefix/common/{i // 10:04d}/{i}" for i in range(N)]
    s_dlba = [None if i % 11 == 0 else f"v{i * i % 97}" for i in range(N)]
    b = [None if i % 13 == 0 else (i % 3 == 0) for i in range(N)]
    st = [None if i % 4 == 0 else {"a": i, "b": None if i % 8 == 1 else f"s{i}"} for i in range(N)]
    return pa.table({
        "i32": pa.array(i32, pa.int32()),
        "i64": pa.array(i64, pa.int64()),
        "u32": pa.array(u32, pa.uint32()),
        "f32": pa.array(f32, pa.float32()),
        "f64": pa.array(f64, pa.float64()),
        "s_dba": pa.array(s_dba, pa.string()),
        "s_dlba": pa.array(s_dlba, pa.string()),
        "flag": pa.array(b, pa.bool_()),
        "st": pa.array(st, pa.struct([("a", pa.int64()), ("b", pa.string())])),
    })


def write_encodings():
    t = values()
    pq.write_table(
        t, os.path.join(OUT, "encodings_v2_gzip.parquet"),
        row_group_size=250, compression="gzip", use_dictionary=False, data_page_version="2.0",
        column_encoding={
            "i32": "DELTA_BINARY_PACKED", "i64": "DELTA_BINARY_PACKED", "u32": "DELTA_BINARY_PACKED",
            "f32": "BYTE_STREAM_SPLIT", "f64": "BYTE_STREAM_SPLIT",
            "s_dba": "DELTA_BYTE_ARRAY", "s_dlba": "DELTA_LENGTH_BYTE_ARRAY",
            "flag": "RLE", "st.a": "DELTA_BINARY_PACKED", "st.b": "PLAIN",
        },
        data_page_size=1024,
    )
    pq.write_table(t, os.path.join(OUT, "encodings_v1_dict_snappy.parquet"),
                   row_group_size=300, compression="snappy", use_dictionary=True,
                   data_page_version="1.0", data_page_size=512)


def wkb_envelope(wkb):
    # Polygon Z (ISO 1003) little-endian WKB as written in the Delft sample.
    xs, ys = [], []
    order = "<" if wkb[0] == 1 else ">"
    (gtype,) = struct.unpack(order + "I", wkb[1:5])
    dims = 3 if gtype in (1003, 0x80000003) else 2
    (nrings,) = struct.unpack(order + "I", wkb[5:9])
    pos = 9
    for _ in range(nrings):
        (n,) = struct.unpack(order + "I", wkb[pos:pos + 4])
        pos += 4
        for _ in range(n):
            x, y = struct.unpack(order + "dd", wkb[pos:pos + 16])
            xs.append(x)
            ys.append(y)
            pos += 8 * dims
    return min(xs), min(ys), max(xs), max(ys)


class GeoArrowWKB(pa.ExtensionType):
    def __init__(self, meta="{}"):
        self._meta = meta
        super().__init__(pa.binary(), "geoarrow.wkb")

    def __arrow_ext_serialize__(self):
        return self._meta.encode()

    @classmethod
    def __arrow_ext_deserialize__(cls, storage_type, serialized):
        return GeoArrowWKB(serialized.decode() or "{}")


def write_delft():
    src = os.path.join(SHARED, "geoparquet", "gpt_buildings-3d_delft_3dbag.parquet")
    f = pq.ParquetFile(src)
    geo = json.loads(f.metadata.metadata[b"geo"])
    parts = []
    for rg in range(f.num_row_groups):
        parts.append(f.read_row_group(rg, columns=["identificatie", "bouwjaar", "geometry"]).slice(0, 60))
    t = pa.concat_tables(parts)
    env = [wkb_envelope(w.as_py()) for w in t.column("geometry")]
    bbox = pa.array([{"xmin": e[0], "ymin": e[1], "xmax": e[2], "ymax": e[3]} for e in env],
                    pa.struct([("xmin", pa.float64()), ("ymin", pa.float64()),
                               ("xmax", pa.float64()), ("ymax", pa.float64())]))
    cov = t.append_column("bbox", bbox)
    g = json.loads(json.dumps(geo))
    g["version"] = "1.1.0"
    g["columns"]["geometry"]["covering"] = {"bbox": {k: ["bbox", k] for k in ("xmin", "ymin", "xmax", "ymax")}}
    cov = cov.replace_schema_metadata({"geo": json.dumps(g)})
    pq.write_table(cov, os.path.join(OUT, "delft_covering_4rg.parquet"), row_group_size=60, compression="zstd")

    # GEOMETRY logical type: Arrow's Parquet writer maps the "geoarrow.wkb" extension type to it.
    crs = geo["columns"]["geometry"].get("crs")
    ext = GeoArrowWKB(json.dumps({"crs": crs}) if crs else "{}")
    geom = pa.ExtensionArray.from_storage(ext, t.column("geometry").combine_chunks().cast(pa.binary()))
    gt = pa.table({"identificatie": t.column("identificatie"), "bouwjaar": t.column("bouwjaar"), "geometry": geom})
    pq.write_table(gt, os.path.join(OUT, "delft_geometry_type_4rg.parquet"), row_group_size=60,
                   compression="zstd", store_schema=False)
    m = pq.ParquetFile(os.path.join(OUT, "delft_geometry_type_4rg.parquet")).metadata
    if "Geometry" not in str(m.schema.column(2).logical_type):
        sys.exit("pyarrow did not write the GEOMETRY logical type")


def write_native_point():
    """GeoArrow native "point" encoding (struct<x, y>), which the reader reports as unsupported."""
    pts = pa.array([{"x": 1.0, "y": 2.0}, {"x": 3.0, "y": 4.0}, None],
                   pa.struct([("x", pa.float64()), ("y", pa.float64())]))
    t = pa.table({"id": pa.array([1, 2, 3], pa.int32()), "geometry": pts})
    geo = {"version": "1.1.0", "primary_column": "geometry",
           "columns": {"geometry": {"encoding": "point", "geometry_types": ["Point"], "crs": None}}}
    t = t.replace_schema_metadata({"geo": json.dumps(geo)})
    pq.write_table(t, os.path.join(OUT, "native_point_encoding.parquet"), compression="none")


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    write_encodings()
    write_delft()
    write_native_point()
    for name in sorted(os.listdir(OUT)):
        print(name, os.path.getsize(os.path.join(OUT, name)))
