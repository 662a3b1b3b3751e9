"""Ensures a baseline exists for HEAD: reuse the local one, else build it with the worker."""

from __future__ import annotations

import subprocess
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.roslyn.client import WorkerClient
from roslynmap.roslyn.discovery import find_solution
from roslynmap.store.paths import baseline_path, baselines_dir
from roslynmap.store.reader import open_baseline, project_rows, read_meta
from roslynmap.store.repo import RepoInfo, inspect_repo

OnEvent = Callable[[dict[str, Any]], None]

_worker: WorkerClient | None = None
_worker_lock = threading.Lock()


def shared_worker() -> WorkerClient:
    """One warm worker per process: the next request reuses the loaded CLR."""
    global _worker
    with _worker_lock:
        if _worker is None:
            _worker = WorkerClient()
        return _worker


@dataclass
class EnsureResult:
    repo: RepoInfo
    path: Path
    built: bool
    meta: dict[str, Any]
    projects: list[dict[str, Any]]


def sdk_version() -> str | None:
    try:
        done = subprocess.run(["dotnet", "--version"], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() or None


def ensure_baseline(
    repo_path: str | Path,
    solution_path: str | None = None,
    *,
    force: bool = False,
    restore: bool = False,
    on_event: OnEvent | None = None,
    worker: WorkerClient | None = None,
) -> EnsureResult:
    repo = inspect_repo(repo_path)
    target = baseline_path(repo.repo_id, repo.commit)
    if target.exists() and not force:
        conn = open_baseline(target)
        return EnsureResult(repo, target, False, read_meta(conn), project_rows(conn))
    solution = find_solution(repo.root, solution_path)
    request = {
        "op": "index",
        "repo_root": str(repo.root),
        "solution": str(solution),
        "out_path": str(target),
        "restore": restore,
        "meta": {
            "repo_id": repo.repo_id,
            "commit": repo.commit,
            "branch": repo.branch,
            "sdk_version": sdk_version(),
            "dirty_files_at_index": list(repo.dirty_files[:50]),
        },
    }
    (worker or shared_worker()).request(request, on_event)
    conn = open_baseline(target)
    return EnsureResult(repo, target, True, read_meta(conn), project_rows(conn))


def list_baselines(repo_id: str) -> list[Path]:
    folder = baselines_dir(repo_id)
    if not folder.exists():
        return []
    return sorted(folder.glob("*.db"), key=lambda p: p.stat().st_mtime, reverse=True)


def require_baseline(repo: RepoInfo, commit: str) -> tuple[Path, str | None]:
    """The baseline for `commit`, else the newest one (with a staleness warning), else an error."""
    exact = baseline_path(repo.repo_id, commit)
    if exact.exists():
        return exact, None
    existing = list_baselines(repo.repo_id)
    if existing:
        newest = existing[0]
        return newest, (
            f"No baseline for HEAD {commit[:12]}; answering from the baseline of {newest.stem[:12]}. "
            "Call index_ensure_baseline to index HEAD."
        )
    raise RoslynMapError(
        ErrorCode.INDEX_NOT_AVAILABLE,
        f"No baseline exists for {repo.root} yet.",
        "Call index_ensure_baseline (it compiles the solution once, then every query is milliseconds).",
    )
