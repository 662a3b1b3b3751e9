"""Loads CoreCLR into this process with pythonnet and imports the bridge. Only the worker calls this."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.roslyn.bridge import BRIDGE_ASSEMBLY, bridge_dir, bridge_roslyn_version  # noqa: F401 (re-exported)
from roslynmap.store.paths import home


def dotnet_root() -> Path:
    configured = os.environ.get("DOTNET_ROOT")
    if configured:
        return Path(configured)
    exe = shutil.which("dotnet")
    if exe is None:
        raise RoslynMapError(
            ErrorCode.COMPILATION_FAILED,
            "The .NET SDK was not found: `dotnet` is not on PATH and DOTNET_ROOT is not set.",
            "Install the .NET SDK 10 (or newer) or set DOTNET_ROOT to its folder.",
        )
    return Path(exe).resolve().parent


RUNTIME_MAJOR = 10  # the bridge's target framework (net10.0); RollForward=Major accepts newer majors


def check_runtime(root: Path) -> None:
    """A clear error when no .NET 10+ runtime is installed, instead of CoreCLR's failure to start."""
    folder = root / "shared" / "Microsoft.NETCore.App"
    try:
        versions = [p.name for p in folder.iterdir() if p.is_dir()]
    except OSError:
        return  # an unusual layout: let the host report what it finds
    majors = [int(v.split(".")[0]) for v in versions if v.split(".")[0].isdigit()]
    if majors and max(majors) < RUNTIME_MAJOR:
        raise RoslynMapError(
            ErrorCode.COMPILATION_FAILED,
            f"roslynmap's bridge needs the .NET {RUNTIME_MAJOR} runtime or newer; {root} has only "
            f"{', '.join(sorted(versions))}.",
            f"Install the .NET SDK {RUNTIME_MAJOR} (it includes the runtime) or point DOTNET_ROOT at one that has it.",
        )


def _runtime_config() -> Path:
    path = home() / "runtime" / "roslynmap.runtimeconfig.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    config = {
        "runtimeOptions": {
            # The bridge targets net10.0 (Roslyn 5.12's Workspaces.MSBuild has no older target); like its
            # csproj (RollForward=Major), a newer major runtime is used when 10 is absent.
            "tfm": "net10.0",
            "framework": {"name": "Microsoft.NETCore.App", "version": "10.0.0"},
            "rollForward": "Major",
            # Dynamic PGO instruments hot methods before optimizing them: a second JIT of much of Roslyn that
            # a worker run of seconds to minutes never earns back (Roslyn from NuGet is not ReadyToRun, so
            # every method is jitted in each worker). Off, Newtonsoft.Json's full index took about a quarter
            # less CPU, and its compile floor a fifth less (docs/benchmarks.md, issue 16).
            "configProperties": {"System.Runtime.TieredPGO": False},
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
            "Reinstall roslynmap (`pipx install --force roslynmap`; the wheel carries the bridge), or in a "
            "source checkout run `python build.py`; ROSLYNMAP_BRIDGE_DIR can point at a built bridge.",
        )
    root = dotnet_root()
    check_runtime(root)
    os.environ["DOTNET_ROOT"] = str(root)
    from pythonnet import load

    load("coreclr", runtime_config=str(_runtime_config()), dotnet_root=str(root))
    import clr

    sys.path.append(str(folder))
    clr.AddReference(str(assembly))
    from RoslynMap.Bridge import IndexSession

    # Python needs no type of an assembly loaded from now on; pythonnet's scan of each one ran on Roslyn's
    # threads inside the load notification, where a worker deadlocked (IndexSession.DetachHostAssemblyScan).
    IndexSession.DetachHostAssemblyScan()
    return IndexSession
