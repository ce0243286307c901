"""How a distributed run's tiles cut the city: the buildings whose addresses (linked in one run)
were decided in different tiles, townhouse rows among them. Exits non-zero when no row is cut, so
that the byte-for-byte comparison beside it is known to cover rows cut by a tile's edge.
  python3 distributed/tile_edges.py WORK_DIR SINGLE_RUN_OUTPUT_DIR
WORK_DIR: a kept work directory (flyr-link-spark --keep-work)."""
import csv
import glob
import struct
import sys

work, single = sys.argv[1:3]
tile_of_id = {}
for path in glob.glob(f"{work}/decisions/tile-*.decisions"):
    data = open(path, "rb").read()
    magic, version, tile, count = struct.unpack_from("<4sIIQ", data, 0)
    assert magic == b"FLTD" and version == 3, path
    (n,) = struct.unpack_from("<H", data, 20)  # the plan's SHA-256
    at = 22 + n
    for _ in range(count):  # address id, building id (0xFFFF: none), reason, method, two doubles
        (n,) = struct.unpack_from("<H", data, at)
        tile_of_id[data[at + 2:at + 2 + n].decode()] = tile
        at += 2 + n
        (n,) = struct.unpack_from("<H", data, at)
        at += 2 + (0 if n == 0xFFFF else n) + 2 + 16
    assert at == len(data), path
tiles, rows = {}, set()
for link in csv.DictReader(open(f"{single}/links.csv")):
    tiles.setdefault(link["building_id"], set()).add(tile_of_id[link["address_id"]])
    if link["unit_id"]:
        rows.add(link["building_id"])
cut = {b for b, t in tiles.items() if len(t) > 1}
print(f"tile edges: {len(cut)} buildings' addresses decided in two tiles or more, {len(cut & rows)} of them townhouse rows "
      f"({len(rows)} rows in all)")
sys.exit(0 if cut & rows else 1)
