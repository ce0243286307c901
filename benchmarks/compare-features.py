#!/usr/bin/env python3
"""Compares rpc_get_campaign_full_features, one feature per line (psql -At -c "SELECT
json_array_elements(rpc_get_campaign_full_features('<campaign>')->'features')"), with a run's
features.geojson (one feature per line), streaming both: same order, same id, same property keys and
values (numbers numerically), same geometry type, coordinates within 1e-7. Exit 1 on a difference.

usage: compare-features.py RPC_LINES FEATURES_GEOJSON
"""
import json, sys
def coords_close(a, b):
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) <= 1e-7 + 1e-12
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return all(coords_close(x, y) for x, y in zip(a, b))
    return False
def same(a, b):
    if a is None or b is None: return a is None and b is None
    if isinstance(a, bool) or isinstance(b, bool): return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)): return float(a) == float(b)
    return a == b
rpc = open(sys.argv[1]); f = open(sys.argv[2])
f.readline()
n = bad = 0
for line in f:
    line = line.strip().rstrip(',')
    if line.startswith(']'): break
    exp = json.loads(line)
    got = json.loads(rpc.readline())
    n += 1
    pe, pg = exp['properties'], got['properties']
    ok = exp.get('id') == got.get('id') and set(pe) == set(pg) and all(same(pe[k], pg[k]) for k in pe) \
         and exp['geometry']['type'] == got['geometry']['type'] and coords_close(exp['geometry']['coordinates'], got['geometry']['coordinates'])
    if not ok:
        bad += 1
        if bad <= 3: print('DIFF', n, exp, got)
extra = rpc.readline()
print(f'rpc vs features.geojson: {n} features, {bad} different' + (', rpc has more' if extra else ''))
sys.exit(1 if bad or extra else 0)
