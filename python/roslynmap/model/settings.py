"""Every ROSLYNMAP_* environment variable, read in one place (docs/configuration.md).

`current()` returns a frozen Settings built from the environment. It is rebuilt only when one of the
variables changed: tests and `roslynmap serve --cache-dir` set them in process, and the worker and
the bridge (a child process) inherit them, so the environment stays the one channel, and this module
the one reader. CLI flags override a variable with `override()`, which sets it for this process and
its children. Bad numbers fall back to the default, as a missing variable does.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

HOME = "ROSLYNMAP_HOME"
CACHE_DIR = "ROSLYNMAP_CACHE_DIR"
ALLOWED_ROOTS = "ROSLYNMAP_ALLOWED_ROOTS"
WORKER_DEADLINE_SECONDS = "ROSLYNMAP_WORKER_DEADLINE_SECONDS"
RESTORE_TIMEOUT_SECONDS = "ROSLYNMAP_RESTORE_TIMEOUT_SECONDS"
OPEN_TIMEOUT_SECONDS = "ROSLYNMAP_OPEN_TIMEOUT_SECONDS"
STALL_SECONDS = "ROSLYNMAP_STALL_SECONDS"
NO_FACTS = "ROSLYNMAP_NO_FACTS"
SHARED_BINDING = "ROSLYNMAP_SHARED_BINDING"
PROFILE = "ROSLYNMAP_PROFILE"
BRIDGE_DIR = "ROSLYNMAP_BRIDGE_DIR"
READY_TO_RUN = "ROSLYNMAP_READY_TO_RUN"  # read by build.py only: how the bridge is compiled
S3_ENDPOINT_URL = "ROSLYNMAP_S3_ENDPOINT_URL"
DEBUG_WORKER_SLEEP = "ROSLYNMAP_DEBUG_WORKER_SLEEP"
META = "ROSLYNMAP_META"
IDS = "ROSLYNMAP_IDS"
INCREMENTAL = "ROSLYNMAP_INCREMENTAL"
DERIVE_MAX_COMMITS = "ROSLYNMAP_DERIVE_MAX_COMMITS"
WARM_LOAD = "ROSLYNMAP_WARM_LOAD"
WARM_MIN_FREE_MB = "ROSLYNMAP_WARM_MIN_FREE_MB"

# Every variable, in the order docs/configuration.md lists them (tests/fast/test_settings.py checks both).
NAMES = (HOME, CACHE_DIR, ALLOWED_ROOTS, WORKER_DEADLINE_SECONDS, RESTORE_TIMEOUT_SECONDS, OPEN_TIMEOUT_SECONDS,
         STALL_SECONDS, NO_FACTS, SHARED_BINDING, PROFILE, BRIDGE_DIR, READY_TO_RUN, S3_ENDPOINT_URL,
         DEBUG_WORKER_SLEEP, META, IDS, INCREMENTAL, DERIVE_MAX_COMMITS, WARM_LOAD, WARM_MIN_FREE_MB)

DEFAULT_WORKER_DEADLINE_S = 900.0  # above the restore timeout and the bridge's open deadline
DEFAULT_RESTORE_TIMEOUT_S = 600.0
DEFAULT_OPEN_TIMEOUT_S = 600.0  # read by the bridge (LoadWatch.cs); mirrored here for the docs and tests
DEFAULT_STALL_S = 300.0  # read by the bridge (WorkPipeline.cs)
DEFAULT_DERIVE_MAX_COMMITS = 50
DEFAULT_WARM_MIN_FREE_MB = 2048.0


@dataclass(frozen=True)
class Settings:
    home: Path
    """Baselines, workspaces, worker logs and usage totals."""
    cache_dir: str | None
    """The shared baseline cache; None when unset or blank. `--cache-dir` overrides it."""
    allowed_roots: tuple[str, ...]
    """Folders whose repositories the server may read, besides --repo and --allow-root."""
    worker_deadline_s: float
    """Seconds one worker request may go without a progress frame."""
    restore_timeout_s: float
    """Seconds all `dotnet restore` runs of one index run may take together."""
    open_timeout_s: float
    """Seconds the bridge waits for MSBuildWorkspace to open the solution (read in C#)."""
    stall_s: float
    """Seconds extraction may go without finishing a document (read in C#)."""
    no_facts: bool
    """`1`: the bridge skips fact extraction (benchmarks measure its cost; read in C#)."""
    bridge_dir: Path | None
    """Where RoslynMap.Bridge.dll is; None: the wheel's roslynmap/_bridge, else dotnet/out of this checkout."""
    s3_endpoint_url: str | None
    """The S3 API endpoint of an `s3://` cache (MinIO, R2, Ceph...); None: AWS_ENDPOINT_URL, else AWS."""
    debug_worker_sleep: str | None
    """Tests only: `op=seconds` makes the worker sleep in that request (a stall)."""
    incremental: bool
    """`0`: every baseline is a full index; else one is derived from an ancestor's baseline when there is one."""
    derive_max_commits: int
    """How many commits back from HEAD an ancestor baseline is looked for (local, then the shared cache)."""
    warm_load: bool
    """`0`: the server does not load the solution in the background for the first overlay refresh."""
    warm_min_free_mb: float
    """The background load starts only when the machine has at least this much memory available (MB)."""
    verbose_meta: bool = False
    """`verbose`: every envelope's meta also carries timing, token accounting and the full commit."""
    full_ids: bool = False
    """`full`: answers name symbols by full documentation ids instead of short ones (query/shortids.py)."""


def _seconds(raw: str | None, default: float) -> float:
    try:
        value = float(raw or "")
    except ValueError:
        return default
    return value if value > 0 else default


def _path(raw: str | None) -> Path | None:
    return Path(raw) if raw else None


def load(env: dict[str, str] | os._Environ[str]) -> Settings:
    """Settings from an environment mapping (os.environ, or a test's dict)."""
    cache = env.get(CACHE_DIR)
    return Settings(
        home=Path(env.get(HOME) or Path.home() / ".roslynmap"),
        cache_dir=cache if cache and cache.strip() else None,
        allowed_roots=tuple(p for p in env.get(ALLOWED_ROOTS, "").split(os.pathsep) if p.strip()),
        worker_deadline_s=_seconds(env.get(WORKER_DEADLINE_SECONDS), DEFAULT_WORKER_DEADLINE_S),
        restore_timeout_s=_seconds(env.get(RESTORE_TIMEOUT_SECONDS), DEFAULT_RESTORE_TIMEOUT_S),
        open_timeout_s=_seconds(env.get(OPEN_TIMEOUT_SECONDS), DEFAULT_OPEN_TIMEOUT_S),
        stall_s=_seconds(env.get(STALL_SECONDS), DEFAULT_STALL_S),
        no_facts=env.get(NO_FACTS) == "1",
        bridge_dir=_path(env.get(BRIDGE_DIR)),
        s3_endpoint_url=env.get(S3_ENDPOINT_URL) or None,
        debug_worker_sleep=env.get(DEBUG_WORKER_SLEEP) or None,
        verbose_meta=(env.get(META) or "").strip().lower() == "verbose",
        full_ids=(env.get(IDS) or "").strip().lower() == "full",
        incremental=env.get(INCREMENTAL) != "0",
        derive_max_commits=int(_seconds(env.get(DERIVE_MAX_COMMITS), DEFAULT_DERIVE_MAX_COMMITS)),
        warm_load=env.get(WARM_LOAD) != "0",
        warm_min_free_mb=_seconds(env.get(WARM_MIN_FREE_MB), DEFAULT_WARM_MIN_FREE_MB),
    )


_cached: tuple[tuple[str | None, ...], Settings] | None = None


def current() -> Settings:
    """The settings of this process now: read once, read again only after a variable changed."""
    global _cached
    key = tuple(os.environ.get(name) for name in NAMES)
    cached = _cached
    if cached is not None and cached[0] == key:
        return cached[1]
    value = load(os.environ)
    _cached = (key, value)
    return value


def override(name: str, value: str) -> None:
    """A CLI flag's value for `name`, for this process and the worker and bridge it starts."""
    if name not in NAMES:
        raise KeyError(f"{name} is not a roslynmap setting")
    os.environ[name] = value
