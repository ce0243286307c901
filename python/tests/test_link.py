import dataclasses
import os
import pathlib
import re
import subprocess
import tempfile
import warnings

import geopandas as gpd
import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

import flyr_link
from conftest import ROOT, cli_links, run_cli

CAMPAIGN = "6f1c0a52-3d1e-4c59-9a1e-0c2f4b7d8e90"
KEY = ["address_id", "building_id", "match_method", "confidence"]
# The columns of links.csv and rejects.csv as the README and docs/formats.md list them.
LINK_COLUMNS = ["id", "campaign_id", "building_id", "address_id", "unit_id", "match_method",
                "is_primary", "confidence", "distance_m"]
REJECT_COLUMNS = ["layer", "source_row", "id", "reason"]


@dataclasses.dataclass
class Runs:
    """The runs several tests compare (a debug binary takes seconds over la_dev)."""
    cli: pd.DataFrame
    linked: flyr_link.LinkResult
    warnings: list


@pytest.fixture(scope="session")
def runs(dataset, binary, tmp_path_factory) -> Runs:
    cli = cli_links(binary, tmp_path_factory.mktemp("cli") / "out", "--buildings", dataset.buildings_path,
                    "--addresses", dataset.addresses_path, "--campaign", CAMPAIGN)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        linked = flyr_link.link(dataset.buildings, dataset.addresses)
    return Runs(cli, linked, [w for w in caught if issubclass(w.category, flyr_link.FlyrLinkWarning)])


def test_geodataframes_give_the_links_of_the_cli(dataset, runs):
    assert len(runs.cli) > 1000
    # The campaign (from the inputs' paths unless given) makes the ids; the rest is the same.
    assert_frame_equal(runs.linked.links[KEY], runs.cli[KEY])
    got = flyr_link.link(dataset.buildings, dataset.addresses, campaign=CAMPAIGN, only="links")
    assert_frame_equal(got.links, runs.cli)


def test_paths_give_the_cli_links_row_for_row(dataset, runs):
    got = flyr_link.link(dataset.buildings_path, str(dataset.addresses_path), campaign=CAMPAIGN, only="links")
    assert_frame_equal(got.links, runs.cli)
    assert got.report["inputs"]["buildings"]["source"] == str(dataset.buildings_path)
    assert (got.addresses, got.buildings, got.units, got.features) == (None, None, None, None)


def test_a_projected_geodataframe_keeps_its_crs(helsinki):
    lonlat = flyr_link.link(helsinki.buildings, helsinki.addresses, only="links")
    crs = helsinki.addresses.estimate_utm_crs()
    projected = flyr_link.link(helsinki.buildings.to_crs(crs), helsinki.addresses.to_crs(crs), only="links")
    assert projected.report["inputs"]["addresses"]["crs"] == crs.to_string()
    assert_frame_equal(projected.links[KEY[:3]], lonlat.links[KEY[:3]])


def test_dtypes_and_crs_are_as_documented(runs):
    result = runs.linked
    links, rejects = result.links, result.rejects
    assert list(links.columns) == LINK_COLUMNS
    for column in ["id", "campaign_id", "building_id", "address_id", "unit_id", "match_method"]:
        assert pd.api.types.is_string_dtype(links[column]), (column, links[column].dtype)
    assert links["is_primary"].dtype == bool
    assert links["confidence"].dtype == "float64" and links["distance_m"].dtype == "float64"
    assert links["confidence"].between(0, 1).all() and links["building_id"].notna().all()
    assert list(rejects.columns) == REJECT_COLUMNS and rejects["source_row"].dtype == "int64"
    assert all(pd.api.types.is_string_dtype(rejects[c]) for c in ["layer", "id", "reason"])

    counts = result.report["counts"]
    assert len(links) == counts["linked"]
    assert len(result.addresses) == counts["linked"] + counts["unlinked"]
    assert len(result.buildings) == counts["buildings"] and len(result.units) == counts["units"]
    for name in ["addresses", "buildings", "units", "features"]:
        layer = getattr(result, name)
        assert isinstance(layer, gpd.GeoDataFrame), name
        assert layer.crs is not None and layer.crs.to_epsg() == 4326, (name, layer.crs)
    assert set(result.addresses.geom_type) == {"Point"}
    assert set(result.buildings.geom_type) <= {"Polygon", "MultiPolygon"}
    assert set(result.features.geom_type) <= {"Polygon", "MultiPolygon", "Point"}
    assert result.report["tool"] == "flyr-link"


def test_ids_are_kept_as_written(helsinki):
    addresses = helsinki.addresses.head(200).copy()
    addresses["id"] = ["NA", "null", " x", "nan"] + list(addresses["id"][4:])
    result = flyr_link.link(helsinki.buildings, addresses)
    ids = set(result.links["address_id"]) | set(result.addresses["id"])
    assert {"NA", "null", " x", "nan"} <= ids


def test_options_reach_the_cli(helsinki, binary, tmp_path):
    territory = helsinki.buildings_path.parent / "territory-north.geojson"
    args = ["--max-distance", "15", "--units", "none", "--matcher", "naive", "--threads", "1",
            "--campaign", CAMPAIGN, "--address-field", "unit=name", "--building-field", "type=building",
            "--no-html", "--territory", territory]
    cli = cli_links(binary, tmp_path / "cli", "--buildings", helsinki.buildings_path,
                    "--addresses", helsinki.addresses_path, *args)
    got = flyr_link.link(helsinki.buildings, helsinki.addresses, max_distance=15, units="none",
                         matcher="naive", threads=1, campaign=CAMPAIGN, address_field={"unit": "name"},
                         building_field=["type=building"], no_html=True, allow_empty=False,
                         territory=gpd.read_file(territory), only="links", height_unit=None)
    assert_frame_equal(got.links, cli)
    options = got.report["options"]
    assert (options["max_distance_m"], options["units"], options["strategy"]) == ("15", "none", "naive")
    assert got.report["inputs"]["addresses"]["fields"]["unit"] == "name"
    assert got.report["counts"]["outside_territory"] > 0


def test_every_run_option_is_a_keyword(binary):
    help_text = subprocess.run([binary, "run", "--help"], capture_output=True, text=True, check=True).stdout
    options = set(re.findall(r"^ {2}(?:-[a-z], )?(--[a-z][a-z-]*)", help_text, re.MULTILINE))
    assert "--max-distance" in options and "--only" in options
    mapped = {flag for flag, _ in flyr_link.RUN_OPTIONS.values()}
    assert options - {"--help", "--version"} - set(flyr_link.FIXED_OPTIONS) == mapped
    assert all(key == flag[2:].replace("-", "_") for key, (flag, _) in flyr_link.RUN_OPTIONS.items())


def test_a_bad_input_raises_the_cli_message(helsinki, binary, tmp_path):
    with pytest.raises(flyr_link.FlyrLinkError) as caught:
        flyr_link.link(helsinki.addresses, helsinki.addresses, tmpdir=tmp_path)
    assert re.fullmatch(r"flyr-link: error: buildings: every feature of .*/buildings\.parquet was rejected "
                        r"\(1377 rejects; most common, 1377×: geometry is a point; a building must be a "
                        r"Polygon or MultiPolygon\); nothing was written \(pass --allow-empty .*\)", str(caught.value))
    assert caught.value.returncode == 1

    missing = tmp_path / "missing.geojson"
    cli = run_cli(binary, tmp_path / "cli", "--buildings", missing, "--addresses", helsinki.addresses_path)
    assert cli.returncode != 0
    with pytest.raises(flyr_link.FlyrLinkError) as caught:
        flyr_link.link(missing, helsinki.addresses)
    assert str(caught.value) == cli.stderr.strip() == f"flyr-link: error: buildings: cannot open {missing}: no such file"
    assert caught.value.returncode == cli.returncode

    with pytest.raises(flyr_link.FlyrLinkError, match=r"^flyr-link: error: --max-distance must be") as caught:
        flyr_link.link(helsinki.buildings_path, helsinki.addresses_path, max_distance=-3)
    assert caught.value.returncode == 64


def test_a_geodataframe_without_crs_is_refused_by_name(helsinki):
    bare = helsinki.addresses.set_crs(None, allow_override=True)
    with pytest.raises(ValueError, match=r"^addresses: the GeoDataFrame has no CRS"):
        flyr_link.link(helsinki.buildings, bare)
    with pytest.raises(ValueError, match=r"^territory: the GeoDataFrame has no CRS"):
        flyr_link.link(helsinki.buildings, helsinki.addresses, territory=bare)
    # addresses_crs= names the CRS the frame lacks, as --addresses-crs does for a file.
    assert len(flyr_link.link(helsinki.buildings, bare, addresses_crs="EPSG:4326", only="links").links) > 1000
    with pytest.raises(TypeError, match="buildings must be a GeoDataFrame or a path, not DataFrame"):
        flyr_link.link(pd.DataFrame(helsinki.buildings.drop(columns="geometry")), helsinki.addresses)


def test_a_missing_binary_raises(helsinki, monkeypatch, tmp_path):
    monkeypatch.setenv("FLYR_LINK", str(tmp_path / "no-such-flyr-link"))
    with pytest.raises(flyr_link.FlyrLinkError, match=r"FLYR_LINK=.*no-such-flyr-link is not an executable file") as caught:
        flyr_link.link(helsinki.buildings, helsinki.addresses, tmpdir=tmp_path)
    assert caught.value.returncode is None
    not_a_program = tmp_path / "flyr-link"
    not_a_program.write_bytes(b"\x7fELF not really")
    not_a_program.chmod(0o755)
    monkeypatch.setenv("FLYR_LINK", str(not_a_program))
    with pytest.raises(flyr_link.FlyrLinkError, match=r"^cannot run .*flyr-link: Exec format error"):
        flyr_link.link(helsinki.buildings_path, helsinki.addresses_path, tmpdir=tmp_path)
    not_a_program.unlink()
    monkeypatch.delenv("FLYR_LINK")
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(flyr_link.FlyrLinkError, match=r"^flyr-link was not found on PATH"):
        flyr_link.link(helsinki.buildings, helsinki.addresses, tmpdir=tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_an_unknown_keyword_is_a_type_error(helsinki, tmp_path):
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'maxdistance'"):
        flyr_link.link(helsinki.buildings, helsinki.addresses, maxdistance=30, tmpdir=tmp_path)
    with pytest.raises(TypeError, match=r"allow_empty takes True or False, not 'yes'"):
        flyr_link.link(helsinki.buildings, helsinki.addresses, allow_empty="yes", tmpdir=tmp_path)
    with pytest.raises(TypeError, match=r"max_distance takes a value, not True"):
        flyr_link.link(helsinki.buildings, helsinki.addresses, max_distance=True, tmpdir=tmp_path)
    with pytest.raises(TypeError, match=r"^link\(\) sets --out itself"):
        flyr_link.link(helsinki.buildings, helsinki.addresses, out="x", tmpdir=tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_no_temporary_file_remains(helsinki, binary, monkeypatch, tmp_path):
    # A wrapper records where the run wrote, to see that the package's directory was the one removed.
    log = tmp_path / "args.txt"
    wrapper = tmp_path / "flyr-link"
    wrapper.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > "{log}"\nexec "{binary}" "$@"\n')
    wrapper.chmod(0o755)
    monkeypatch.setenv("FLYR_LINK", str(wrapper))
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))

    result = flyr_link.link(helsinki.buildings, helsinki.addresses)
    args = log.read_text().splitlines()
    out = pathlib.Path(args[args.index("--out") + 1])
    assert out.parent.parent == scratch and out.name == "out"
    assert args[args.index("--buildings") + 1] == str(out.parent / "buildings.parquet")
    assert len(result.features) > 0 and list(scratch.iterdir()) == []

    with pytest.raises(flyr_link.FlyrLinkError):
        flyr_link.link(helsinki.addresses, helsinki.addresses)
    with pytest.raises(flyr_link.FlyrLinkError):
        flyr_link.link(helsinki.buildings, helsinki.addresses, territory=helsinki.addresses, max_distance=-1)
    assert list(scratch.iterdir()) == []

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    flyr_link.link(helsinki.buildings_path, helsinki.addresses, tmpdir=elsewhere, only="links")
    args = log.read_text().splitlines()
    out = pathlib.Path(args[args.index("--out") + 1])
    assert out.parent.parent == elsewhere and list(elsewhere.iterdir()) == [] and list(scratch.iterdir()) == []


def test_warnings_are_python_warnings(dataset, runs):
    # la_dev's heights are in feet; Helsinki's run has no warning.
    codes = [w["code"] for w in runs.linked.report["warnings"]]
    assert codes == (["height_in_feet"] if dataset.name == "la_dev" else [])
    assert [str(w.message) for w in runs.warnings] == [f"flyr-link: warning: {w['message']}" for w in runs.linked.report["warnings"]]
    assert all(w.filename == __file__ for w in runs.warnings)


def test_the_version_is_the_binarys():
    swift = (ROOT / "Sources" / "FlyrLink" / "Pipeline" / "RunReport.swift").read_text()
    assert re.search(r'static let string = "([^"]+)"', swift).group(1) == flyr_link.__version__


def test_the_readme_example_runs(monkeypatch):
    readme = (ROOT / "README.md").read_text()
    example = re.search(r"## From Python\n.*?```python\n(.*?)```", readme, re.DOTALL).group(1)
    assert len(example.splitlines()) == 5
    monkeypatch.chdir(ROOT)
    scope = {}
    exec(example, scope)
    assert len(scope["result"].links) > 1000 and scope["result"].units.crs.to_epsg() == 4326
