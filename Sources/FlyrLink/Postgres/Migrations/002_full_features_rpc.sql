-- flyr-link migration 002: rpc_get_campaign_full_features(p_campaign_id uuid) returns the campaign's
-- full-features FeatureCollection: the same features, in the same order, with the same properties as
-- the run's features.geojson (DESIGN.md's table). One feature per building of the campaign, or one
-- per unit slice of a split townhouse row, then one Point per unlinked address. Per-campaign values
-- (address_count, units_count) come from campaign_buildings, not from the shared ref_buildings_gold.
CREATE OR REPLACE FUNCTION rpc_get_campaign_full_features(p_campaign_id uuid)
RETURNS json
LANGUAGE sql
STABLE
-- Tables resolve in the schema(s) the migration ran in, whatever the caller's search_path.
SET search_path FROM CURRENT
AS $function$
WITH buildings AS (
    SELECT cb.ordinal, cb.address_count, cb.units_count, b.id, b.geom, COALESCE(b.height_m, 10) AS height
    FROM campaign_buildings cb
    JOIN ref_buildings_gold b ON b.id = cb.building_id
    WHERE cb.campaign_id = p_campaign_id
),
whole AS (
    SELECT 0 AS part, bl.ordinal, 0 AS sub, bl.id AS feature_id, bl.geom,
           json_build_object(
               'id', bl.id, 'gers_id', bl.id, 'building_id', bl.id,
               'address_id', a.id, 'address_count', bl.address_count, 'source', 'gold',
               'match_method', l.match_method, 'confidence', l.confidence_score,
               'address_text', COALESCE(NULLIF(a.formatted, ''),
                                        NULLIF(concat_ws(' ', NULLIF(a.house_number, ''), NULLIF(a.street_name, '')), '')),
               'house_number', a.house_number, 'street_name', a.street_name,
               'status', 'not_visited', 'scans_total', 0, 'qr_scanned', false,
               'height', bl.height, 'height_m', bl.height) AS properties
    FROM buildings bl
    LEFT JOIN building_address_links l
           ON l.campaign_id = p_campaign_id AND l.building_id = bl.id AND l.is_primary
    LEFT JOIN campaign_addresses a
           ON bl.address_count = 1 AND a.campaign_id = p_campaign_id AND a.id = l.address_id
    WHERE bl.units_count = 0
),
slices AS (
    SELECT 0 AS part, bl.ordinal, u.unit_index AS sub, bl.id AS feature_id, u.geom,
           json_build_object(
               'id', u.id, 'gers_id', bl.id, 'building_id', bl.id,
               'address_id', u.address_id, 'address_count', bl.address_count, 'source', 'gold',
               'match_method', l.match_method, 'confidence', l.confidence_score,
               'address_text', COALESCE(NULLIF(a.formatted, ''),
                                        NULLIF(concat_ws(' ', NULLIF(a.house_number, ''), NULLIF(a.street_name, '')), '')),
               'house_number', a.house_number, 'street_name', a.street_name,
               'unit_index', u.unit_index, 'units_count', bl.units_count,
               'status', 'not_visited', 'scans_total', 0, 'qr_scanned', false,
               'height', bl.height, 'height_m', bl.height) AS properties
    FROM buildings bl
    JOIN building_units u ON u.campaign_id = p_campaign_id AND u.building_id = bl.id
    LEFT JOIN campaign_addresses a ON a.campaign_id = p_campaign_id AND a.id = u.address_id
    LEFT JOIN building_address_links l ON l.campaign_id = p_campaign_id AND l.address_id = u.address_id
),
points AS (
    SELECT 1 AS part, a.ordinal, 0 AS sub, a.id AS feature_id, a.geom,
           json_build_object(
               'id', a.id, 'gers_id', a.id, 'address_id', a.id, 'address_count', 1, 'source', 'address_point',
               'match_method', NULL, 'confidence', NULL,
               'address_text', COALESCE(NULLIF(a.formatted, ''),
                                        NULLIF(concat_ws(' ', NULLIF(a.house_number, ''), NULLIF(a.street_name, '')), '')),
               'house_number', a.house_number, 'street_name', a.street_name,
               'status', 'not_visited', 'scans_total', 0, 'qr_scanned', false,
               'height', 10, 'height_m', 10) AS properties
    FROM campaign_addresses a
    WHERE a.campaign_id = p_campaign_id AND a.building_id IS NULL
)
SELECT json_build_object(
    'type', 'FeatureCollection',
    'features', COALESCE(json_agg(json_build_object(
        'type', 'Feature',
        'id', f.feature_id,
        'geometry', ST_AsGeoJSON(CASE WHEN GeometryType(f.geom) = 'MULTIPOLYGON' AND ST_NumGeometries(f.geom) = 1
                                      THEN ST_GeometryN(f.geom, 1) ELSE f.geom END, 7)::json,
        'properties', f.properties) ORDER BY f.part, f.ordinal, f.sub), '[]'::json))
FROM (SELECT * FROM whole UNION ALL SELECT * FROM slices UNION ALL SELECT * FROM points) f;
$function$;
