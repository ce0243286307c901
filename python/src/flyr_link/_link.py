from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import tempfile
import warnings
from typing import Any, Dict, List, Mapping, Optional, Union

import geopandas as gpd
import pandas as pd

Source = Union[gpd.GeoDataFrame, str, "os.PathLike[str]"]


class FlyrLinkError(Exception):
    """flyr-link could not be run or its run failed. The message is flyr-link's one error line
    (``flyr-link: error: …``); ``returncode`` is its exit status (None when it did not start)."""

    def __init__(self, message: str, returncode: Optional[int] = None, stderr: str = ""):
        super().__init__(message)
        self.returncode = returncode
        self.stderr = stderr


class FlyrLinkWarning(UserWarning):
    """A ``flyr-link: warning: …`` line of a run that succeeded (also in ``report["warnings"]``)."""


# Keyword → (`flyr-link run` option, kind). Kinds: "value" (given as text), "flag" (True gives the
# flag), "fields" (repeatable field=source: a dict or strings), "source" (a path or a GeoDataFrame).
RUN_OPTIONS: Dict[str, tuple] = {
    "buildings_layer": ("--buildings-layer", "value"),
    "buildings_crs": ("--buildings-crs", "value"),
    "addresses_layer": ("--addresses-layer", "value"),
    "addresses_crs": ("--addresses-crs", "value"),
    "territory": ("--territory", "source"),
    "territory_layer": ("--territory-layer", "value"),
    "address_field": ("--address-field", "fields"),
    "building_field": ("--building-field", "fields"),
    "remote_timeout": ("--remote-timeout", "value"),
    "remote_min_rate": ("--remote-min-rate", "value"),
    "remote_rate_window": ("--remote-rate-window", "value"),
    "max_distance": ("--max-distance", "value"),
    "units": ("--units", "value"),
    "threads": ("--threads", "value"),
    "parquet_reader": ("--parquet-reader", "value"),
    "height_unit": ("--height-unit", "value"),
    "allow_empty": ("--allow-empty", "flag"),
    "overwrite": ("--overwrite", "flag"),
    "campaign": ("--campaign", "value"),
    "only": ("--only", "value"),
    "no_html": ("--no-html", "flag"),
    "matcher": ("--matcher", "value"),
    "link_model": ("--link-model", "value"),
    "write_evidence": ("--write-evidence", "value"),
}

# The `run` options link() sets itself (the sources are its arguments, the output its temporary directory).
FIXED_OPTIONS = ("--buildings", "--addresses", "--out", "--format", "--quiet")

# links.csv's and rejects.csv's columns (docs/formats.md); text is pandas' default string dtype.
LINK_DTYPES: Dict[str, Any] = {
    "id": str,
    "campaign_id": str,
    "building_id": str,
    "address_id": str,
    "unit_id": str,
    "match_method": str,
    "is_primary": bool,
    "confidence": "float64",
    "distance_m": "float64",
}
REJECT_DTYPES: Dict[str, Any] = {"layer": str, "source_row": "int64", "id": str, "reason": str}

# The cells read as missing; every other text (an id "NA", " ") is kept as written.
_LINK_MISSING = {"unit_id": [""], "confidence": [""], "distance_m": [""]}
_REJECT_MISSING = {"id": [""]}

_GEOMETRY_LAYERS = ("addresses", "buildings", "units", "features")


@dataclasses.dataclass(repr=False)
class LinkResult:
    """What a run wrote. The geometry layers (EPSG:4326 lon/lat) are None with ``only="links"``."""

    links: pd.DataFrame
    rejects: pd.DataFrame
    report: Dict[str, Any]
    addresses: Optional[gpd.GeoDataFrame] = None
    buildings: Optional[gpd.GeoDataFrame] = None
    units: Optional[gpd.GeoDataFrame] = None
    features: Optional[gpd.GeoDataFrame] = None

    def __repr__(self) -> str:
        parts = [f"links={len(self.links)} rows", f"rejects={len(self.rejects)} rows"]
        for name in _GEOMETRY_LAYERS:
            layer = getattr(self, name)
            parts.append(f"{name}={'None' if layer is None else f'{len(layer)} rows'}")
        return f"LinkResult({', '.join(parts)})"


def find_binary() -> str:
    """The flyr-link binary: ``$FLYR_LINK``, else ``flyr-link`` on PATH."""
    named = os.environ.get("FLYR_LINK")
    if named:
        if os.path.isfile(named) and os.access(named, os.X_OK):
            return named
        raise FlyrLinkError(f"FLYR_LINK={named} is not an executable file: point it at the flyr-link binary")
    found = shutil.which("flyr-link")
    if found is None:
        raise FlyrLinkError(
            "flyr-link was not found on PATH: install it (its Debian package or scripts/install.sh) "
            "or set FLYR_LINK to the binary"
        )
    return found


def link(
    buildings: Source,
    addresses: Source,
    *,
    tmpdir: Optional[Union[str, "os.PathLike[str]"]] = None,
    **options: Any,
) -> LinkResult:
    """Link ``addresses`` to ``buildings`` with ``flyr-link run`` and return its outputs.

    Each source is a GeoDataFrame (written to GeoParquet in a temporary directory, its CRS kept; a
    territory as FlatGeobuf) or a path flyr-link reads itself. Every ``flyr-link run`` option is a
    keyword, dashes as underscores: ``max_distance=30``, ``only="links"``, ``allow_empty=True``,
    ``address_field={"house_number": "husnr"}``, ``territory=`` a path or a GeoDataFrame; None
    leaves an option out. Without ``campaign=``, the campaign and link ids derive from the inputs'
    paths, so a GeoDataFrame (written to a new temporary path each call) gets new ones each call.
    ``tmpdir`` is where the temporary directory is made (default: tempfile's); it is removed
    whatever happens. Raises FlyrLinkError when the binary is missing or the run fails.
    """
    args = _option_args(options)
    binary = find_binary()
    work = tempfile.mkdtemp(prefix="flyr-link-", dir=None if tmpdir is None else os.fspath(tmpdir))
    try:
        sources = []
        for role, value in (("buildings", buildings), ("addresses", addresses)):
            sources += [f"--{role}", _source_path(value, role, work, options.get(f"{role}_crs") is not None)]
        territory = options.get("territory")
        if territory is not None:
            args += ["--territory", _source_path(territory, "territory", work, False)]
        out = os.path.join(work, "out")
        command = [binary, "run", *sources, *args, "--out", out, "--format", "parquet", "--quiet"]
        try:
            run = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, errors="replace")
        except OSError as error:
            raise FlyrLinkError(f"cannot run {binary}: {error.strerror or error}") from error
        if run.returncode != 0:
            raise FlyrLinkError(_error_line(run.stderr, run.returncode), run.returncode, run.stderr)
        for line in run.stderr.splitlines():
            if line.startswith("flyr-link: warning: "):
                warnings.warn(line, FlyrLinkWarning, stacklevel=2)
        return _read_output(out, geometry=options.get("only") != "links")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _option_args(options: Mapping[str, Any]) -> List[str]:
    args: List[str] = []
    for key, value in options.items():
        if f"--{key}" in FIXED_OPTIONS:
            raise TypeError(f"link() sets --{key} itself: it runs flyr-link into a temporary directory and reads it back")
        if key not in RUN_OPTIONS:
            raise TypeError(f"link() got an unexpected keyword argument {key!r} (not a flyr-link run option)")
        flag, kind = RUN_OPTIONS[key]
        if value is None or kind == "source":
            continue
        if kind == "flag":
            if not isinstance(value, bool):
                raise TypeError(f"{key} takes True or False, not {value!r}")
            if value:
                args.append(flag)
        elif kind == "fields":
            if isinstance(value, Mapping):
                pairs = [f"{field}={source}" for field, source in value.items()]
            elif isinstance(value, str):
                pairs = [value]
            else:
                pairs = [str(pair) for pair in value]
            for pair in pairs:
                args += [flag, pair]
        else:
            if isinstance(value, bool):
                raise TypeError(f"{key} takes a value, not {value!r}")
            args += [flag, os.fspath(value) if isinstance(value, os.PathLike) else str(value)]
    return args


def _source_path(value: Any, role: str, work: str, crs_given: bool) -> str:
    if isinstance(value, gpd.GeoDataFrame):
        if value.crs is None and not crs_given:
            raise ValueError(
                f"{role}: the GeoDataFrame has no CRS: set one ({role}.set_crs(…)) "
                + (f"or pass {role}_crs=…" if role != "territory" else "")
            )
        if role == "territory":
            # --territory is read through GDAL, whose Debian 12 build has no Parquet driver.
            path = os.path.join(work, "territory.fgb")
            value.to_file(path, driver="FlatGeobuf")
        else:
            path = os.path.join(work, f"{role}.parquet")
            value.to_parquet(path)
        return path
    if isinstance(value, (str, os.PathLike)):
        return os.fspath(value)
    raise TypeError(f"{role} must be a GeoDataFrame or a path, not {type(value).__name__}")


def _error_line(stderr: str, returncode: int) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("flyr-link: error:")]
    if errors:
        return errors[-1]
    if lines:
        return lines[-1]
    if returncode < 0:
        return f"flyr-link was killed by signal {-returncode}"
    return f"flyr-link exited with status {returncode} and no message"


def _read_output(out: str, geometry: bool) -> LinkResult:
    links = pd.read_csv(os.path.join(out, "links.csv"), dtype=LINK_DTYPES,
                        keep_default_na=False, na_values=_LINK_MISSING)
    rejects = pd.read_csv(os.path.join(out, "rejects.csv"), dtype=REJECT_DTYPES,
                          keep_default_na=False, na_values=_REJECT_MISSING)
    with open(os.path.join(out, "report.json"), encoding="utf-8") as f:
        report = json.load(f)
    layers: Dict[str, Optional[gpd.GeoDataFrame]] = {}
    for name in _GEOMETRY_LAYERS:
        layers[name] = _read_layer(os.path.join(out, f"{name}.parquet")) if geometry else None
    return LinkResult(links=links, rejects=rejects, report=report, **layers)


def _read_layer(path: str) -> gpd.GeoDataFrame:
    layer = gpd.read_parquet(path)
    # flyr-link writes no CRS (GeoParquet's default, OGC:CRS84); named EPSG:4326 as the docs and
    # read_file of the GeoJSON outputs name it (GeoPandas keeps x as longitude for both).
    if layer.crs is None or layer.crs.equals("OGC:CRS84"):
        layer = layer.set_crs("EPSG:4326", allow_override=True)
    return layer
