#!/usr/bin/env python3
"""An address layer with UNITS unit addresses at one point: an apartment complex whose units share
one address point, as unit-level registers and Overture's addresses have them.

    benchmarks/dense-point.py ADDRESSES.geojson UNITS OUT.geojson

The units take the first address's point, street and house number, with units 1..UNITS and ids
dense-1..dense-UNITS; the input's addresses are kept as they are.
"""
import json
import sys

source, units, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(source) as f:
    layer = json.load(f)
first = layer["features"][0]
for u in range(1, units + 1):
    props = dict(first["properties"], id=f"dense-{u}", unit=str(u))
    layer["features"].append({"type": "Feature", "properties": props, "geometry": first["geometry"]})
with open(out, "w") as f:
    json.dump(layer, f)
