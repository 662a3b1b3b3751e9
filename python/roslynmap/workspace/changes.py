"""Refresh planning: which `.cs` files differ from the baseline (git status, a scan without git, or the
paths given), and a file's fingerprint (sha1, mtime, size) as it is now."""

from __future__ import annotations

import hashlib
import subprocess
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.model.readable import is_readable
from roslynmap.store import overlay as overlay_store
from roslynmap.store.repo import RepoInfo

SKIP_DIRS = {"bin", "obj"}


def _git_run(root: Path, *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(["git", "-C", str(root), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _skipped(path: str) -> bool:
    return not path.endswith(".cs") or any(part in SKIP_DIRS for part in path.split("/")[:-1])


def git_changes(root: Path, base: str, indexed: set[str]) -> dict[str, str]:
    """{path: changed|added|deleted} for the `.cs` files of the working tree that differ from `base`
    (`git diff --name-status <base>` plus untracked files), judged against what the baseline indexed."""
    diff = _git_run(root, "diff", "--name-status", "-z", "--no-renames", base, "--", "*.cs")
    untracked = _git_run(root, "ls-files", "--others", "--exclude-standard", "-z", "--", "*.cs")
    diff_out, diff_err = diff.communicate(timeout=60)
    untracked_out, _ = untracked.communicate(timeout=60)
    if diff.returncode != 0:
        raise RoslynMapError(ErrorCode.INVALID_ARGUMENT,
                             f"`git diff {base[:12]}` failed: {diff_err.decode(errors='replace').strip()[:300]}",
                             "Pass file_paths explicitly, or workspace_reset the workspace onto HEAD.")
    out: dict[str, str] = {}
    fields = diff_out.split(b"\0")
    for status, raw in zip(fields[0::2], fields[1::2], strict=False):
        path = raw.decode("utf-8", "replace")
        if not status or _skipped(path):
            continue
        code = status[:1].decode()
        if code == "D":
            if path in indexed:
                out[path] = "deleted"
        elif code == "A":
            out[path] = "changed" if path in indexed else "added"
        elif path in indexed:  # M, T, U: a file the baseline compiled
            out[path] = "changed"
    for raw in untracked_out.split(b"\0"):
        path = raw.decode("utf-8", "replace")
        if path and not _skipped(path):
            out[path] = "changed" if path in indexed else "added"
    return out


def scan_changes(root: Path, since: float, indexed: set[str]) -> dict[str, str]:
    """Without git: indexed files modified after `since` or gone, and `.cs` files the baseline lacks."""
    out: dict[str, str] = {}
    for path in indexed:
        try:
            if (root / path).stat().st_mtime > since:
                out[path] = "changed"
        except FileNotFoundError:
            out[path] = "deleted"
    for file in root.rglob("*.cs"):
        rel = file.relative_to(root).as_posix()
        if rel not in indexed and not _skipped(rel) and not any(p.startswith(".") for p in rel.split("/")):
            out[rel] = "added"
    return out


def explicit_changes(root: Path, paths: Iterable[str], indexed: set[str], previous: dict[str, str]) -> dict[str, str]:
    """file_paths mode: the overlay as it was, updated with the given files' state on disk. A given file
    the baseline lacks and the disk lacks leaves the overlay."""
    out = dict(previous)
    for path in paths:
        if _skipped(path):
            continue
        exists = (root / path).is_file()
        if path in indexed:
            out[path] = "changed" if exists else "deleted"
        elif exists:
            out[path] = "added"
        else:
            out.pop(path, None)
    return out


_indexed_cache: dict[str, tuple[int, set[str]]] = {}
_indexed_lock = threading.Lock()


def indexed_paths(baseline: Path) -> set[str]:
    """The files a baseline indexed (cached per baseline file)."""
    stat = baseline.stat()
    key = str(baseline)
    with _indexed_lock:
        cached = _indexed_cache.get(key)
        if cached is not None and cached[0] == stat.st_ino:
            return cached[1]
    conn = overlay_store.open_readonly(baseline)
    try:
        paths = {row[0] for row in conn.execute("SELECT path FROM files")}
    finally:
        conn.close()
    with _indexed_lock:
        _indexed_cache[key] = (stat.st_ino, paths)
    return paths


def file_fingerprint(root: Path, path: str) -> tuple[dict[str, Any], str] | None:
    """(fingerprint, text) of a file as it is now, or None when it is gone."""
    file = root / path
    try:
        stat = file.stat()
        data = file.read_bytes()
    except (FileNotFoundError, IsADirectoryError):
        return None
    return ({"sha1": hashlib.sha1(data).hexdigest(), "mtime_ns": stat.st_mtime_ns, "size": stat.st_size},
            data.decode("utf-8-sig", "replace"))


@dataclass
class RefreshPlan:
    """What a refresh sends to the worker: the whole overlay's files and texts, and what changed since the
    previous overlay (`before`: path -> {state, sha1})."""

    files: dict[str, dict[str, Any]]  # path -> {state, sha1, mtime_ns, size} ({state: deleted} for a deletion)
    texts: dict[str, str]
    extract: list[str]  # files whose text or state changed since the previous overlay
    deleted_now: list[str]
    dropped: list[str]  # in the previous overlay, back to the baseline's version now
    outside: list[str]  # skipped: real path outside the repository (DESIGN §11)


def plan_refresh(repo: RepoInfo, base: str, baseline: Path, before: dict[str, dict[str, Any]],
                 file_paths: list[str] | None) -> RefreshPlan:
    """Detects the changed files (file_paths, git, or a scan), reads their texts and fingerprints, and
    compares them with the previous overlay."""
    indexed = indexed_paths(baseline)
    if file_paths is not None:
        current = explicit_changes(repo.root, file_paths, indexed, {p: f["state"] for p, f in before.items()})
    elif repo.is_git:
        current = git_changes(repo.root, base, indexed)
    else:
        current = scan_changes(repo.root, baseline.stat().st_mtime, indexed)
    files: dict[str, dict[str, Any]] = {}
    texts: dict[str, str] = {}
    outside: list[str] = []
    for path, state in sorted(current.items()):
        if state != "deleted" and (repo.root / path).exists() and not is_readable(repo.root, path):
            outside.append(path)  # DESIGN §11: a symlink to a file outside the repository is never read
            continue
        if state == "deleted":
            if (repo.root / path).exists():  # restored meanwhile (file_paths mode)
                state = "changed"
            else:
                files[path] = {"state": "deleted"}
                continue
        found = file_fingerprint(repo.root, path)
        if found is None:  # vanished between detection and reading
            if path in indexed:
                files[path] = {"state": "deleted"}
            continue
        fingerprint, text = found
        files[path] = {"state": state, **fingerprint}
        texts[path] = text
    extract = [p for p, f in files.items() if f["state"] != "deleted" and (
        p not in before or before[p].get("sha1") != f["sha1"] or before[p]["state"] != f["state"])]
    deleted_now = [p for p, f in files.items() if f["state"] == "deleted" and before.get(p, {}).get("state")
                   != "deleted"]
    return RefreshPlan(files, texts, extract, deleted_now, sorted(set(before) - set(files)), outside)
