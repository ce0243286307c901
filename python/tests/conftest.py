import dataclasses
import os
import pathlib
import shutil
import subprocess

import geopandas as gpd
import pandas as pd
import pytest

import flyr_link

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATASETS = {
    "helsinki": ROOT / "data" / "helsinki",
    "la_dev": ROOT.parent / "shared" / "data" / "la_dev",
}


@dataclasses.dataclass
class Dataset:
    name: str
    buildings_path: pathlib.Path
    addresses_path: pathlib.Path
    buildings: gpd.GeoDataFrame
    addresses: gpd.GeoDataFrame


@pytest.fixture(scope="session")
def binary() -> str:
    path = os.environ.get("FLYR_LINK") or shutil.which("flyr-link")
    if not path:
        pytest.fail("set FLYR_LINK to the flyr-link binary (python/test.sh BINARY does)")
    return os.path.realpath(path)


def load(name: str) -> Dataset:
    folder = DATASETS[name]
    buildings, addresses = folder / "buildings.geojson", folder / "addresses.geojson"
    if not (buildings.is_file() and addresses.is_file()):
        pytest.skip(f"{name}: {folder} has no buildings.geojson and addresses.geojson (la_dev lives in ../shared/data/)")
    # pyogrio refuses Helsinki's 2-point rings (flyr-link rejects them); on_invalid reads them as no geometry.
    return Dataset(name, buildings, addresses,
                   gpd.read_file(buildings, on_invalid="ignore"), gpd.read_file(addresses))


@pytest.fixture(scope="session", params=sorted(DATASETS))
def dataset(request) -> Dataset:
    return load(request.param)


@pytest.fixture(scope="session")
def helsinki() -> Dataset:
    return load("helsinki")

def run_cli(binary: str, out: pathlib.Path, *args) -> subprocess.CompletedProcess:
    return subprocess.run([binary, "run", *map(str, args), "--out", str(out), "--quiet"],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True)


def cli_links(binary: str, out: pathlib.Path, *args) -> pd.DataFrame:
    """links.csv of `flyr-link run ARGS --only links`, read as flyr_link reads it."""
    run = run_cli(binary, out, *args, "--only", "links")
    assert run.returncode == 0, run.stderr
    return flyr_link._link._read_output(str(out), geometry=False).links
