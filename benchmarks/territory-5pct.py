"""A square at a flyr-synth city's centre with 5% of its bounding box's area, as GeoJSON.

    python3 benchmarks/territory-5pct.py CITY/city.json OUT.geojson
"""
import json
import math
import sys

b = json.load(open(sys.argv[1]))["bbox"]
cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
f = math.sqrt(0.05) / 2
w, h = (b[2] - b[0]) * f, (b[3] - b[1]) * f
ring = [[cx - w, cy - h], [cx + w, cy - h], [cx + w, cy + h], [cx - w, cy + h], [cx - w, cy - h]]
json.dump({"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {},
           "geometry": {"type": "Polygon", "coordinates": [ring]}}]}, open(sys.argv[2], "w"))
