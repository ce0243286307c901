#!/usr/bin/env python3
"""Writes a synthetic city (flyr-synth output: buildings.geojson, addresses.geojson) as GeoParquet
with pyarrow: GeoParquet 1.1 `geo` metadata, WKB geometry, a bbox covering struct, several row
groups; buildings with snappy, addresses with zstd. The test fixture Tests/FlyrLinkTests/Fixtures/city2k
was made with:

    .build/release/flyr-synth generate --buildings 2000 --seed 7 --out /tmp/city2k
    scripts/make-parquet-city.py /tmp/city2k Tests/FlyrLinkTests/Fixtures/city2k [rows per group, default 500]

Needs pyarrow (pip install pyarrow); WKB is written here, no shapely needed.
"""
import json, struct, sys
import pyarrow as pa
import pyarrow.parquet as pq

def wkb_point(c):
    return struct.pack('<BIdd', 1, 1, c[0], c[1])

def wkb_polygon(rings):
    out = struct.pack('<BII', 1, 3, len(rings))
    for ring in rings:
        out += struct.pack('<I', len(ring))
        for x, y in ring:
            out += struct.pack('<dd', x, y)
    return out

def wkb(geom):
    if geom['type'] == 'Point':
        return wkb_point(geom['coordinates'])
    if geom['type'] == 'Polygon':
        return wkb_polygon(geom['coordinates'])
    raise ValueError(geom['type'])

def bbox(geom):
    if geom['type'] == 'Point':
        x, y = geom['coordinates']
        return x, y, x, y
    xs = [p[0] for r in geom['coordinates'] for p in r]
    ys = [p[1] for r in geom['coordinates'] for p in r]
    return min(xs), min(ys), max(xs), max(ys)

def hilbert(x, y, order=16):
    """Index of cell (x, y) on a Hilbert curve over a 2^order grid."""
    d = 0
    s = 1 << (order - 1)
    while s > 0:
        rx = 1 if x & s else 0
        ry = 1 if y & s else 0
        d += s * s * ((3 * rx) ^ ry)
        if ry == 0:
            if rx == 1:
                x, y = s - 1 - x, s - 1 - y
            x, y = y, x
        s >>= 1
    return d

def hilbert_sorted(features):
    """Rows ordered along a Hilbert curve, so each row group covers a compact area (as
    GeoParquet writers such as geoparquet-io recommend): a territory then meets few row groups."""
    boxes = [bbox(f['geometry']) for f in features]
    minx = min(b[0] for b in boxes); miny = min(b[1] for b in boxes)
    maxx = max(b[2] for b in boxes); maxy = max(b[3] for b in boxes)
    n = (1 << 16) - 1
    def key(i):
        b = boxes[i]
        cx = (b[0] + b[2]) / 2; cy = (b[1] + b[3]) / 2
        return (hilbert(int((cx - minx) / max(maxx - minx, 1e-12) * n), int((cy - miny) / max(maxy - miny, 1e-12) * n)), i)
    return [features[i] for i in sorted(range(len(features)), key=key)]

def write(src, dst, compression, row_group_size):
    features = hilbert_sorted(json.load(open(src))['features'])
    keys = []
    for f in features:
        for k in f['properties']:
            if k not in keys:
                keys.append(k)
    cols = {k: [f['properties'].get(k) for f in features] for k in keys}
    boxes = [bbox(f['geometry']) for f in features]
    arrays = {}
    for k, v in cols.items():
        arrays[k] = pa.array(v)
    arrays['geometry'] = pa.array([wkb(f['geometry']) for f in features], type=pa.binary())
    arrays['bbox'] = pa.StructArray.from_arrays(
        [pa.array([b[i] for b in boxes], type=pa.float64()) for i in range(4)], names=['xmin', 'ymin', 'xmax', 'ymax'])
    types = sorted({f['geometry']['type'] for f in features})
    geo = {"version": "1.1.0", "primary_column": "geometry",
           "columns": {"geometry": {"encoding": "WKB", "geometry_types": types,
                                    "covering": {"bbox": {"xmin": ["bbox", "xmin"], "ymin": ["bbox", "ymin"],
                                                          "xmax": ["bbox", "xmax"], "ymax": ["bbox", "ymax"]}}}}}
    table = pa.table(arrays).replace_schema_metadata({b"geo": json.dumps(geo).encode()})
    pq.write_table(table, dst, compression=compression, row_group_size=row_group_size, write_statistics=True)

if __name__ == '__main__':
    src, dst = sys.argv[1], sys.argv[2]
    rows = int(sys.argv[3]) if len(sys.argv) > 3 else 500
    write(f'{src}/buildings.geojson', f'{dst}/buildings.snappy.parquet', 'snappy', rows)
    write(f'{src}/addresses.geojson', f'{dst}/addresses.zstd.parquet', 'zstd', rows)
