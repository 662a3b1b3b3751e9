"""Loads CoreCLR into this process with pythonnet and imports the bridge. Only the worker calls this."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

from roslynmap.model import settings
from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.store.paths import home

BRIDGE_ASSEMBLY = "RoslynMap.Bridge.dll"


def bridge_dir() -> Path:
    """`ROSLYNMAP_BRIDGE_DIR`, else `dotnet/out` of this source checkout (where build.py puts it)."""
    configured = settings.current().bridge_dir
    if configured:
        return configured
    return Path(__file__).resolve().parents[3] / "dotnet" / "out"


def dotnet_root() -> Path:
    configured = os.environ.get("DOTNET_ROOT")
    if configured:
        return Path(configured)
    exe = shutil.which("dotnet")
    if exe is None:
        raise RoslynMapError(
            ErrorCode.COMPILATION_FAILED,
            "The .NET SDK was not found: `dotnet` is not on PATH and DOTNET_ROOT is not set.",
            "Install the .NET SDK (8 or newer) or set DOTNET_ROOT to its folder.",
        )
    return Path(exe).resolve().parent


def _runtime_config() -> Path:
    path = home() / "runtime" / "roslynmap.runtimeconfig.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    config = {
        "runtimeOptions": {
            "tfm": "net10.0",
            "framework": {"name": "Microsoft.NETCore.App", "version": "8.0.0"},
            "rollForward": "LatestMajor",
        }
    }
    path.write_text(json.dumps(config))
    return path


def load_bridge() -> Any:
    """Returns the bridge's `IndexSession` type. Raises a clear error when the bridge is not built."""
    folder = bridge_dir()
    assembly = folder / BRIDGE_ASSEMBLY
    if not assembly.exists():
        raise RoslynMapError(
            ErrorCode.COMPILATION_FAILED,
            f"The C# bridge is not built ({assembly} is missing).",
            "Run `python build.py` in the roslynmap checkout, or set ROSLYNMAP_BRIDGE_DIR.",
        )
    root = dotnet_root()
    os.environ["DOTNET_ROOT"] = str(root)
    from pythonnet import load

    load("coreclr", runtime_config=str(_runtime_config()), dotnet_root=str(root))
    import clr

    sys.path.append(str(folder))
    clr.AddReference(str(assembly))
    from RoslynMap.Bridge import IndexSession

    return IndexSession
