"""Link address points to building footprints from Python: ``flyr_link.link(buildings, addresses)``
runs the installed flyr-link binary over GeoDataFrames (or paths) and returns its outputs."""

from ._link import (
    FIXED_OPTIONS,
    RUN_OPTIONS,
    FlyrLinkError,
    FlyrLinkWarning,
    LINK_DTYPES,
    LinkResult,
    REJECT_DTYPES,
    find_binary,
    link,
)

__version__ = "0.1.0"

__all__ = [
    "FIXED_OPTIONS",
    "RUN_OPTIONS",
    "FlyrLinkError",
    "FlyrLinkWarning",
    "LINK_DTYPES",
    "LinkResult",
    "REJECT_DTYPES",
    "find_binary",
    "link",
    "__version__",
]
