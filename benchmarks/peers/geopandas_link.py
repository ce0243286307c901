#!/usr/bin/env python3
"""GeoPandas peer of `flyr-link run --only links`: what a GIS engineer would write by hand.

    geopandas_link.py BUILDINGS ADDRESSES OUT.csv [--max-distance 30]

1. read both layers with pyogrio (Arrow I/O when pyarrow is present), or GeoParquet (`.parquet`)
   with gpd.read_parquet;
2. project both to the UTM zone GeoPandas estimates for the addresses (metres);
3. containment: gpd.sjoin(addresses, buildings, predicate="covered_by"); an address covered by
   several footprints keeps the smallest footprint, then the smallest building id;
4. the rest: gpd.sjoin_nearest(..., max_distance=M, distance_col="distance_m"); equidistant
   candidates are broken by building id;
5. write address_id,building_id,match_method,confidence,distance_m (linked addresses only;
   confidence 1.0 for containment, 0.75 for proximity, as the harness scores every peer).
"""
import argparse
import sys
import time

import geopandas as gpd
import pandas as pd


def read(path):
    if str(path).lower().endswith((".parquet", ".geoparquet")):
        df = gpd.read_parquet(path)
    else:
        try:
            import pyarrow  # noqa: F401
            arrow = True
        except ImportError:
            arrow = False
        df = gpd.read_file(path, engine="pyogrio", use_arrow=arrow)
    if "id" not in df.columns:
        sys.exit(f"{path}: no 'id' field")
    df["id"] = df["id"].astype(str)
    return df


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("buildings")
    ap.add_argument("addresses")
    ap.add_argument("out")
    ap.add_argument("--max-distance", type=float, default=30.0)
    args = ap.parse_args()
    t0 = time.perf_counter()
    stages = {}

    buildings = read(args.buildings)[["id", "geometry"]]
    addresses = read(args.addresses)[["id", "geometry"]]
    stages["read"] = time.perf_counter() - t0

    t = time.perf_counter()
    crs = addresses.estimate_utm_crs()
    buildings = buildings.to_crs(crs)
    addresses = addresses.to_crs(crs)
    buildings = buildings.rename(columns={"id": "building_id"})
    buildings["area"] = buildings.geometry.area
    addresses = addresses.rename(columns={"id": "address_id"})
    stages["project"] = time.perf_counter() - t

    t = time.perf_counter()
    inside = gpd.sjoin(addresses, buildings, how="inner", predicate="covered_by")
    inside = inside.sort_values(["address_id", "area", "building_id"], kind="mergesort")
    inside = inside.drop_duplicates("address_id", keep="first")
    exact = pd.DataFrame({
        "address_id": inside["address_id"].values,
        "building_id": inside["building_id"].values,
        "match_method": "gold_exact",
        "confidence": 1.0,
        "distance_m": 0.0,
    })
    stages["covered_by"] = time.perf_counter() - t

    t = time.perf_counter()
    rest = addresses[~addresses["address_id"].isin(exact["address_id"])]
    near = gpd.sjoin_nearest(rest, buildings, how="inner", max_distance=args.max_distance,
                             distance_col="distance_m")
    near = near.sort_values(["address_id", "distance_m", "building_id"], kind="mergesort")
    near = near.drop_duplicates("address_id", keep="first")
    prox = pd.DataFrame({
        "address_id": near["address_id"].values,
        "building_id": near["building_id"].values,
        "match_method": "gold_proximity",
        "confidence": 0.75,
        "distance_m": near["distance_m"].round(2).values,
    })
    stages["nearest"] = time.perf_counter() - t

    t = time.perf_counter()
    links = pd.concat([exact, prox], ignore_index=True).sort_values("address_id", kind="mergesort")
    links.to_csv(args.out, index=False, float_format="%.2f")
    stages["write"] = time.perf_counter() - t

    print("geopandas: %d addresses, %d buildings -> %d exact, %d proximity; %s" % (
        len(addresses), len(buildings), len(exact), len(prox),
        " ".join("%s %.2fs" % kv for kv in stages.items())), file=sys.stderr)


if __name__ == "__main__":
    main()
