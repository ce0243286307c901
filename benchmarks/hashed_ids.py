#!/usr/bin/env python3
"""A synthetic city with ids as long as Overture's: every building's and address's id replaced by
the MD5 of it in hex (32 characters), the rest of each feature byte for byte the same.

    python3 benchmarks/hashed_ids.py CITY_DIR OUT_DIR

CITY_DIR holds the harness's buildings.geojson and addresses.geojson (one feature per line, as
`run_benchmarks.py` writes them). The ids then follow no order in space, as real ids do not.
"""
import hashlib
import os
import re
import sys

ID = re.compile(r'"id":"([^"]*)"')


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src, out = sys.argv[1], sys.argv[2]
    try:
        os.makedirs(out, exist_ok=True)
        for layer in ("buildings", "addresses"):
            target = os.path.join(out, f"{layer}.geojson")
            # Written beside the target and renamed: never a half-written layer.
            with open(os.path.join(src, f"{layer}.geojson")) as f, open(target + ".tmp", "w") as o:
                for line in f:
                    o.write(ID.sub(lambda m: '"id":"%s"' % hashlib.md5(m.group(1).encode()).hexdigest(), line, count=1))
            os.replace(target + ".tmp", target)
    except OSError as e:
        sys.exit(f"hashed_ids.py: {e}")


if __name__ == "__main__":
    main()
