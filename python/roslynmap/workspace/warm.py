"""The background solution load (issue 16): the first overlay refresh of a server process would otherwise
wait for the worker to load the solution (seconds to a minute on large repositories). `start` asks the
shared worker, on a background thread, to load the solution it will extract overlays from, so that refresh
finds it warm. Started by workspace tools and by `serve` for a repository that has workspaces; never by
a query. Bounded: once per repository and solution per process, off with ROSLYNMAP_WARM_LOAD=0, and
skipped when the machine has less than ROSLYNMAP_WARM_MIN_FREE_MB available (the loaded solution stays
in the worker until its idle timeout)."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from roslynmap.model import settings
from roslynmap.model.errors import RoslynMapError
from roslynmap.roslyn.client import WorkerClient
from roslynmap.roslyn.discovery import find_solution
from roslynmap.store.paths import baseline_path
from roslynmap.store.repo import RepoInfo
from roslynmap.workspace.baselines import shared_worker
from roslynmap.workspace.records import baseline_solution

_lock = threading.Lock()
_started: dict[str, dict[str, Any]] = {}  # "root|solution" -> status, for this process


def available_mb() -> float | None:
    """MemAvailable from /proc/meminfo in MB (None where there is no /proc)."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def status(repo: RepoInfo) -> list[dict[str, Any]]:
    """The background loads this process started for the repository (tests and repo diagnostics)."""
    with _lock:
        return [dict(v) for k, v in _started.items() if k.startswith(f"{repo.root}|")]


def start(repo: RepoInfo, solution_hint: str | None = None, worker: WorkerClient | None = None) -> str:
    """Starts loading the repository's solution in the worker, in the background. Returns what happened:
    "started", "already" (this process did), "off" (setting), "low_memory", or "no_solution"."""
    current = settings.current()
    if not current.warm_load:
        return "off"
    free = available_mb()
    if free is not None and free < current.warm_min_free_mb:
        return "low_memory"
    hint = solution_hint or baseline_solution(baseline_path(repo.repo_id, repo.commit))
    try:
        solution = find_solution(repo.root, hint)
    except RoslynMapError:
        return "no_solution"
    key = f"{repo.root}|{solution}"
    with _lock:
        if key in _started:
            return "already"
        entry: dict[str, Any] = {"solution": str(solution), "state": "loading", "started_at": time.time()}
        _started[key] = entry
    client = worker or shared_worker()

    def load() -> None:
        try:
            done = client.request({"op": "overlay_warm", "repo_root": str(repo.root), "solution": str(solution)})
            outcome = {"state": "loaded", "cold": bool(done.get("cold")), "load_seconds": done.get("load_seconds")}
        except Exception as exc:  # a failed warm-up only means the first refresh loads on demand
            outcome = {"state": "failed", "error": str(exc)[:300]}
        with _lock:
            entry.update(outcome)

    threading.Thread(target=load, name="roslynmap-warm-load", daemon=True).start()
    return "started"


def wait(repo: RepoInfo, timeout: float) -> list[dict[str, Any]]:
    """Waits until no background load of the repository is still loading (tests and benchmarks)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = status(repo)
        if all(e["state"] != "loading" for e in found):
            return found
        time.sleep(0.1)
    return status(repo)
