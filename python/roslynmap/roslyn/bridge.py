"""Where the compiled bridge is and which Roslyn it was built with: file lookups only, no CLR, so any
layer that must know (the cache's toolchain check) can ask without loading .NET."""

from __future__ import annotations

import functools
import json
from pathlib import Path

from roslynmap.model import settings

BRIDGE_ASSEMBLY = "RoslynMap.Bridge.dll"


PACKAGED_BRIDGE = Path(__file__).resolve().parents[1] / "_bridge"  # inside an installed wheel
CHECKOUT_BRIDGE = Path(__file__).resolve().parents[3] / "dotnet" / "out"  # where `python build.py` builds it
ROSLYN_PACKAGE = "Microsoft.CodeAnalysis.Common/"


def bridge_dir() -> Path:
    """`ROSLYNMAP_BRIDGE_DIR`, else the bridge the wheel carries (roslynmap/_bridge), else `dotnet/out` of
    this source checkout. build.py stages _bridge in a copy of the project it builds the wheel from, so a
    checkout never holds a stale copy there."""
    configured = settings.current().bridge_dir
    if configured:
        return configured
    if (PACKAGED_BRIDGE / BRIDGE_ASSEMBLY).is_file():
        return PACKAGED_BRIDGE
    return CHECKOUT_BRIDGE


@functools.cache
def bridge_roslyn_version() -> str | None:
    """The Roslyn version the bridge was compiled against (its pinned NuGet package), read from the bridge's
    deps.json without starting the CLR; None when the bridge is not built. Cache pulls compare it with the
    version a baseline records."""
    try:
        deps = json.loads((bridge_dir() / "RoslynMap.Bridge.deps.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    for target in deps.get("targets", {}).values():
        for name in target:
            if name.startswith(ROSLYN_PACKAGE):
                return str(name[len(ROSLYN_PACKAGE):])
    return None
