"""Ensures a baseline exists for HEAD (the local one, else the shared cache's, else built with the worker);
lists the local baselines and removes old ones."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from roslynmap import __version__
from roslynmap.model import settings
from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.roslyn.bridge import bridge_roslyn_version
from roslynmap.roslyn.client import RETRY_NOTE, WorkerClient
from roslynmap.roslyn.discovery import find_solution
from roslynmap.store import cache
from roslynmap.store.paths import baseline_path, baselines_dir, repo_dir
from roslynmap.store.reader import open_baseline, project_rows, read_meta
from roslynmap.store.repo import RepoInfo, inspect_repo, is_build_output

OnEvent = Callable[[dict[str, Any]], None]
Restore = bool | Literal["auto"]

_worker: WorkerClient | None = None
_worker_lock = threading.Lock()

cache.expect_roslyn(bridge_roslyn_version)  # reads the bridge's deps.json; never starts the CLR


def shared_worker() -> WorkerClient:
    """One warm worker per process: the next request reuses the loaded CLR."""
    global _worker
    with _worker_lock:
        if _worker is None:
            _worker = WorkerClient()
        return _worker


Source = Literal["local", "cache", "built"]


@dataclass
class EnsureResult:
    repo: RepoInfo
    path: Path
    source: Source
    meta: dict[str, Any]
    projects: list[dict[str, Any]]
    warnings: list[str] = field(default_factory=list)
    pull_seconds: float | None = None
    derived: dict[str, Any] | None = None
    """How a built baseline was made: {"from": ancestor commit, "extracted", "documents", ...}, or
    {"from": None, "reason": why a full index} when incremental indexing was tried or declined."""

    @property
    def derived_note(self) -> str | None:
        """One line for users: what the build reused (None when it was not built)."""
        if self.source != "built" or self.derived is None:
            return None
        d = self.derived
        if d.get("from"):
            return (f"derived from {str(d['from'])[:12]} ({d.get('extracted')} of {d.get('documents')} documents "
                    "re-extracted)")
        return f"full index ({d.get('reason')})" if d.get("reason") else None

    @property
    def built(self) -> bool:
        return self.source == "built"

    @property
    def from_cache(self) -> bool:
        return self.source == "cache"


def sdk_version() -> str | None:
    try:
        done = subprocess.run(["dotnet", "--version"], capture_output=True, text=True, timeout=30, check=False,
                              stdin=subprocess.DEVNULL)  # never the caller's terminal
    except (OSError, subprocess.TimeoutExpired):
        return None
    # An unmet global.json pin in the current folder fails the command (its text is no version).
    return (done.stdout.strip() or None) if done.returncode == 0 else None


def ensure_baseline(
    repo_path: str | Path,
    solution_path: str | None = None,
    *,
    force: bool = False,
    restore: Restore = False,
    on_event: OnEvent | None = None,
    worker: WorkerClient | None = None,
    cache_dir: cache.CacheRoot | None = None,
    framework: str | None = None,
    full: bool = False,
) -> EnsureResult:
    """The local baseline for HEAD; else the shared cache's (verified, copied to the local store); else
    built. `force` skips both and rebuilds. A cache entry that fails verification is reported in
    `warnings` and the baseline is built locally. `restore`: True runs `dotnet restore` first (per project
    when the solution's fails); "auto" only when a loaded project lacks its assets file.
    `framework` picks the target framework of multi-targeted
    projects (over roslynmap.json); a baseline built for another request is rebuilt, the cache is skipped.
    A built baseline is derived from the nearest ancestor commit's baseline when there is one (docs/ci.md,
    "Incremental baselines"), unless `full`, `force` or ROSLYNMAP_INCREMENTAL=0."""
    repo = inspect_repo(repo_path)
    target = baseline_path(repo.repo_id, repo.commit)
    warnings: list[str] = []
    frameworks = {"framework": framework.strip()} if framework and framework.strip() else None
    if target.exists() and not force:
        try:
            conn = open_baseline(target)
            meta = read_meta(conn)
            built_for = (meta.get("framework_request") or {}).get("argument")
            built_by = meta.get("roslynmap_version")
            if built_by not in (None, __version__):
                # Each version extracts something the last did not (docs/architecture.md, "Versions"): a baseline
                # of another one would answer as that version did.
                warnings.append(f"The baseline for HEAD was built by roslynmap {built_by}; rebuilt by {__version__}.")
            elif frameworks is None or built_for == frameworks:
                return EnsureResult(repo, target, "local", meta, project_rows(conn))
            else:
                warnings.append(f"The baseline for HEAD was built for {built_for or 'the default frameworks'}; "
                                f"rebuilt for {frameworks['framework']}.")
        except RoslynMapError as exc:  # another schema version (roslynmap was upgraded): rebuild it
            warnings.append(f"{exc.message} Rebuilt.")
    if cache_dir is not None and not force and frameworks is None:
        pulled = cache.pull(cache_dir, repo.repo_id, repo.commit, target)
        if pulled.status == "pulled":
            conn = open_baseline(target)
            return EnsureResult(repo, target, "cache", read_meta(conn), project_rows(conn),
                                pull_seconds=pulled.seconds)
        if pulled.message:
            warnings.append(f"{pulled.message}; built locally.")
    solution = find_solution(repo.root, solution_path)
    request: dict[str, Any] = {
        "op": "index",
        "repo_root": str(repo.root),
        "solution": str(solution),
        "out_path": str(target),
        "restore": restore,
        "frameworks": frameworks,
        "meta": {
            "repo_id": repo.repo_id,
            "commit": repo.commit,
            "branch": repo.branch,
            "sdk_version": sdk_version(),
            "dirty_files_at_index": cache.dirty_for_meta(repo.dirty_files),
        },
    }
    derived: dict[str, Any] | None = None
    if not (full or force) and settings.current().incremental:
        found = find_ancestor(repo, cache_dir, frameworks)
        if isinstance(found, str):
            derived = {"from": None, "reason": found} if found else None
        else:
            ancestor_commit, ancestor_path, changed = found
            request = {**request, "op": "derive", "ancestor": str(ancestor_path), "ancestor_commit": ancestor_commit,
                       "changed": changed}
    # A stalled or dead worker is replaced and the request redone once by the client itself.
    done = (worker or shared_worker()).request(request, on_event)
    if done.get(RETRY_NOTE):
        warnings.append(str(done[RETRY_NOTE]))
    derived = done.get("derived", derived)
    conn = open_baseline(target)
    return EnsureResult(repo, target, "built", read_meta(conn), project_rows(conn), warnings, derived=derived)


# Changed files that cannot change what the index holds (besides C# documents, which are re-extracted).
# appsettings*.json: its facts are read afresh by every index. Anything else (project files, props,
# .editorconfig, Razor, resources, generator inputs) makes the next index a full one.
INERT_SUFFIXES = (".md", ".markdown", ".rst", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".ico", ".yml", ".yaml")
INERT_NAMES = (".gitignore", ".gitattributes", "LICENSE", "LICENSE.txt", "CODEOWNERS")


def _inert(path: str) -> bool:
    name = path.rsplit("/", 1)[-1]
    return (path.endswith(".cs") or path.lower().endswith(INERT_SUFFIXES) or name in INERT_NAMES
            or (name.startswith("appsettings") and name.endswith(".json")))


def _git_lines(root: Path, *args: str) -> list[str] | None:
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, timeout=60, check=False,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    return [p for p in done.stdout.decode("utf-8", "replace").split("\0") if p]


def _ancestor_problem(path: Path, frameworks: dict[str, str] | None) -> str | None:
    """Why this ancestor baseline cannot be derived from (None: it can)."""
    try:
        meta = read_meta(open_baseline(path))
    except RoslynMapError as exc:
        return exc.message
    if cache.roslyn_release(meta.get("roslyn_version")) != bridge_roslyn_version() \
            or meta.get("roslynmap_version") != __version__:
        return "it was built by another roslynmap or Roslyn version"
    if (meta.get("framework_request") or {}).get("argument") != frameworks:
        return "it was built for other target frameworks"
    if meta.get("dirty_files_at_index"):
        return "it was built from a working tree with uncommitted changes"
    return None


def find_ancestor(repo: RepoInfo, cache_dir: cache.CacheRoot | None,
                  frameworks: dict[str, str] | None) -> tuple[str, Path, list[str]] | str:
    """(commit, baseline, changed C# paths) of the nearest ancestor of HEAD with a usable baseline (local,
    else pulled from the shared cache), or why there is none to derive from ("" when no ancestor has one)."""
    listed = _git_lines(repo.root, "rev-list", f"--max-count={settings.current().derive_max_commits + 1}", "HEAD")
    commits = [c for chunk in listed or [] for c in chunk.split()]  # one per line (rev-list ignores -z)
    declined = ""
    for commit in commits[1:]:
        path = baseline_path(repo.repo_id, commit)
        if not path.exists():
            if cache_dir is None or frameworks is not None or not cache.has_entry(cache_dir, repo.repo_id, commit):
                continue
            if cache.pull(cache_dir, repo.repo_id, commit, path).status != "pulled":
                continue
        problem = _ancestor_problem(path, frameworks)
        if problem:
            declined = declined or f"the baseline of {commit[:12]} is not usable: {problem}"
            continue
        tracked = _git_lines(repo.root, "diff", "--name-only", "-z", "--no-renames", commit)
        untracked = _git_lines(repo.root, "ls-files", "--others", "--exclude-standard", "-z")
        if tracked is None or untracked is None:
            return "git could not compare the working tree with the ancestor"
        # Build outputs never count (the index leaves bin/ and obj/ out, ignored by git or not).
        changed = sorted(p for p in set(tracked) | set(untracked) if not is_build_output(p))
        other = [p for p in changed if not _inert(p)]
        if other:
            return f"{len(other)} non-C# file(s) changed since {commit[:12]} ({', '.join(other[:3])})"
        return commit, path, [p for p in changed if p.endswith(".cs")]
    return declined


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


def workspace_users(repo_id: str) -> tuple[dict[str, list[str]], list[str]]:
    """Which baseline each live workspace stands on: ({commit: [workspace ids]}, warnings).

    A workspace is `repos/<repo_id>/workspaces/<workspace_id>.json` holding at least `baseline_commit`;
    it is live while that file exists. An unreadable file is reported and ignored.
    """
    users: dict[str, list[str]] = {}
    warnings = []
    for path in sorted((repo_dir(repo_id) / "workspaces").glob("*.json")):
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
            commit = record["baseline_commit"]
            if not isinstance(commit, str):
                raise TypeError("baseline_commit is not a string")
        except (OSError, ValueError, KeyError, TypeError) as exc:
            warnings.append(f"Workspace file {path.name} is unreadable ({type(exc).__name__}: {exc}); ignored.")
            continue
        users.setdefault(commit, []).append(str(record.get("workspace_id") or path.stem))
    return users, warnings


def describe_baselines(repo: RepoInfo, cache_dir: cache.CacheRoot | None) -> tuple[list[dict[str, Any]], list[str]]:
    """Every local baseline of the repository, newest first: commit, size, created_at, level, counts,
    whether the shared cache holds it (None without a cache), the workspaces using it."""
    users, warnings = workspace_users(repo.repo_id)
    out = []
    for path in list_baselines(repo.repo_id):
        commit = path.stem
        try:
            stat = path.stat()
            meta = cache.database_meta(path)
        except FileNotFoundError:  # removed meanwhile
            continue
        except sqlite3.Error as exc:
            meta = {}
            warnings.append(f"Baseline {commit[:12]} is unreadable ({exc}).")
        out.append({
            "commit": commit,
            "is_head": commit == repo.commit,
            "size_bytes": stat.st_size,
            "created_at": meta.get("created_at"),
            "semantic_level": meta.get("semantic_level"),
            "counts": meta.get("counts"),
            "schema_version": meta.get("schema_version"),
            "in_cache": None if cache_dir is None else cache.has_entry(cache_dir, repo.repo_id, commit),
            "workspaces": users.get(commit, []),
        })
    return out, warnings


STALE_TEMP_S = 3600.0


def cleanup_baselines(repo: RepoInfo, keep: int, *, dry_run: bool = False) -> dict[str, Any]:
    """Removes local baselines except the newest `keep`, HEAD's and any a live workspace uses; also temp
    files abandoned by crashed builds or pulls (untouched for an hour)."""
    users, warnings = workspace_users(repo.repo_id)
    kept, removed = [], []
    freed = 0
    for rank, path in enumerate(list_baselines(repo.repo_id)):
        commit = path.stem
        reasons = []
        if rank < keep:
            reasons.append("newest")
        if commit == repo.commit:
            reasons.append("head")
        reasons += [f"workspace {w}" for w in users.get(commit, [])]
        if reasons:
            kept.append({"commit": commit, "reasons": reasons})
            continue
        siblings = [path, *(path.with_name(path.name + suffix) for suffix in ("-wal", "-shm"))]
        size = sum(p.stat().st_size for p in siblings if p.exists())
        if not dry_run:
            for sibling in siblings:
                sibling.unlink(missing_ok=True)
        removed.append({"commit": commit, "size_bytes": size})
        freed += size
    temps = []
    folder = baselines_dir(repo.repo_id)
    now = time.time()
    for temp in sorted(folder.glob(".*.tmp")) if folder.exists() else []:
        try:
            stat = temp.stat()
        except FileNotFoundError:
            continue
        if now - stat.st_mtime > STALE_TEMP_S:
            if not dry_run:
                temp.unlink(missing_ok=True)
            temps.append(temp.name)
            freed += stat.st_size
    return {"keep": keep, "dry_run": dry_run, "removed": removed, "kept": kept, "removed_temp_files": temps,
            "bytes_freed": freed, "warnings": warnings}
