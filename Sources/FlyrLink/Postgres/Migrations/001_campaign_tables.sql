-- flyr-link migration 001: the tables a campaign run writes (the app's names, seeds 001/002).
-- Ids from the inputs are text (Overture GERS ids, OSM "way/N", UUIDv5s); campaign and link ids are uuid.
-- Each table is created if missing; one that existed before flyr-link (e.g. the app's own) gets the
-- columns it lacks (nullable) before the indexes are made.

-- Buildings are reference data shared by campaigns: one row per building id, upserted by each run
-- that has the building (the per-run columns hold the values of the last run that wrote it).
CREATE TABLE IF NOT EXISTS ref_buildings_gold (
    id text PRIMARY KEY,
    gers_id text,
    source text NOT NULL DEFAULT 'gold',
    geom geometry(MultiPolygon, 4326) NOT NULL,
    height_m double precision,
    levels integer,
    address_count integer NOT NULL DEFAULT 0,
    is_townhome_row boolean NOT NULL DEFAULT false,
    units_count integer NOT NULL DEFAULT 0,
    updated_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE ref_buildings_gold
    ADD COLUMN IF NOT EXISTS id text,
    ADD COLUMN IF NOT EXISTS gers_id text,
    ADD COLUMN IF NOT EXISTS source text,
    ADD COLUMN IF NOT EXISTS geom geometry(MultiPolygon, 4326),
    ADD COLUMN IF NOT EXISTS height_m double precision,
    ADD COLUMN IF NOT EXISTS levels integer,
    ADD COLUMN IF NOT EXISTS address_count integer,
    ADD COLUMN IF NOT EXISTS is_townhome_row boolean,
    ADD COLUMN IF NOT EXISTS units_count integer,
    ADD COLUMN IF NOT EXISTS updated_at timestamptz;
CREATE INDEX IF NOT EXISTS ref_buildings_gold_geom_idx ON ref_buildings_gold USING gist (geom);

-- Which buildings belong to a campaign, in input order, with that campaign's counts.
CREATE TABLE IF NOT EXISTS campaign_buildings (
    campaign_id uuid NOT NULL,
    building_id text NOT NULL,
    ordinal integer NOT NULL,
    address_count integer NOT NULL,
    is_townhome_row boolean NOT NULL,
    units_count integer NOT NULL,
    PRIMARY KEY (campaign_id, building_id)
);
ALTER TABLE campaign_buildings
    ADD COLUMN IF NOT EXISTS campaign_id uuid,
    ADD COLUMN IF NOT EXISTS building_id text,
    ADD COLUMN IF NOT EXISTS ordinal integer,
    ADD COLUMN IF NOT EXISTS address_count integer,
    ADD COLUMN IF NOT EXISTS is_townhome_row boolean,
    ADD COLUMN IF NOT EXISTS units_count integer;
CREATE INDEX IF NOT EXISTS campaign_buildings_building_id_idx ON campaign_buildings (building_id);

-- Every accepted address of a campaign; building_id is the Gold link (null when unlinked).
CREATE TABLE IF NOT EXISTS campaign_addresses (
    id text NOT NULL,
    campaign_id uuid NOT NULL,
    house_number text,
    street_name text,
    unit text,
    formatted text,
    locality text,
    region text,
    postal_code text,
    building_id text,
    unit_id text,
    match_method text,
    confidence double precision,
    distance_m double precision,
    unlinked_reason text,
    ordinal integer NOT NULL,
    geom geometry(Point, 4326) NOT NULL,
    PRIMARY KEY (campaign_id, id)
);
ALTER TABLE campaign_addresses
    ADD COLUMN IF NOT EXISTS id text,
    ADD COLUMN IF NOT EXISTS campaign_id uuid,
    ADD COLUMN IF NOT EXISTS house_number text,
    ADD COLUMN IF NOT EXISTS street_name text,
    ADD COLUMN IF NOT EXISTS unit text,
    ADD COLUMN IF NOT EXISTS formatted text,
    ADD COLUMN IF NOT EXISTS locality text,
    ADD COLUMN IF NOT EXISTS region text,
    ADD COLUMN IF NOT EXISTS postal_code text,
    ADD COLUMN IF NOT EXISTS building_id text,
    ADD COLUMN IF NOT EXISTS unit_id text,
    ADD COLUMN IF NOT EXISTS match_method text,
    ADD COLUMN IF NOT EXISTS confidence double precision,
    ADD COLUMN IF NOT EXISTS distance_m double precision,
    ADD COLUMN IF NOT EXISTS unlinked_reason text,
    ADD COLUMN IF NOT EXISTS ordinal integer,
    ADD COLUMN IF NOT EXISTS geom geometry(Point, 4326);
CREATE INDEX IF NOT EXISTS campaign_addresses_geom_idx ON campaign_addresses USING gist (geom);
CREATE INDEX IF NOT EXISTS campaign_addresses_campaign_id_idx ON campaign_addresses (campaign_id);
CREATE INDEX IF NOT EXISTS campaign_addresses_building_id_idx ON campaign_addresses (building_id);

-- links.csv: one row per linked address.
CREATE TABLE IF NOT EXISTS building_address_links (
    id uuid PRIMARY KEY,
    campaign_id uuid NOT NULL,
    building_id text NOT NULL,
    address_id text NOT NULL,
    unit_id text,
    match_method text NOT NULL,
    is_primary boolean NOT NULL DEFAULT false,
    confidence_score double precision NOT NULL,
    distance_m double precision NOT NULL,
    UNIQUE (building_id, address_id, campaign_id)
);
ALTER TABLE building_address_links
    ADD COLUMN IF NOT EXISTS id uuid,
    ADD COLUMN IF NOT EXISTS campaign_id uuid,
    ADD COLUMN IF NOT EXISTS building_id text,
    ADD COLUMN IF NOT EXISTS address_id text,
    ADD COLUMN IF NOT EXISTS unit_id text,
    ADD COLUMN IF NOT EXISTS match_method text,
    ADD COLUMN IF NOT EXISTS is_primary boolean,
    ADD COLUMN IF NOT EXISTS confidence_score double precision,
    ADD COLUMN IF NOT EXISTS distance_m double precision;
CREATE INDEX IF NOT EXISTS building_address_links_campaign_id_idx ON building_address_links (campaign_id);
CREATE INDEX IF NOT EXISTS building_address_links_building_id_idx ON building_address_links (building_id);

-- units.geojson: townhouse unit slices.
CREATE TABLE IF NOT EXISTS building_units (
    id text NOT NULL,
    building_id text NOT NULL,
    address_id text NOT NULL,
    unit_index integer NOT NULL,
    campaign_id uuid NOT NULL,
    geom geometry(MultiPolygon, 4326) NOT NULL,
    PRIMARY KEY (campaign_id, id)
);
ALTER TABLE building_units
    ADD COLUMN IF NOT EXISTS id text,
    ADD COLUMN IF NOT EXISTS building_id text,
    ADD COLUMN IF NOT EXISTS address_id text,
    ADD COLUMN IF NOT EXISTS unit_index integer,
    ADD COLUMN IF NOT EXISTS campaign_id uuid,
    ADD COLUMN IF NOT EXISTS geom geometry(MultiPolygon, 4326);
CREATE INDEX IF NOT EXISTS building_units_geom_idx ON building_units USING gist (geom);
CREATE INDEX IF NOT EXISTS building_units_campaign_id_idx ON building_units (campaign_id);
CREATE INDEX IF NOT EXISTS building_units_building_id_idx ON building_units (building_id);
