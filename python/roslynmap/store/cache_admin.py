"""Looking after a shared cache: list its entries, prune old ones (`roslynmap cache list | prune`).

CI publishes one entry per commit and nothing else removes them, so the owner of the folder prunes:
per repository, the newest `keep` complete entries always stay, older complete entries go once
they are `older_than_days` old, and incomplete entries (no manifest: an interrupted publish) go once
nobody can still be writing them. An entry is removed under its publish lock, manifest first, so a
reader sees either a complete entry or none; a pull that was copying the file fails its checksum and
the reader builds the baseline itself.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from filelock import Timeout

from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.store import locks
from roslynmap.store.cache import LOCK_FILE, LOCK_TIMEOUT_S, MANIFEST_FILE, read_manifest

# An incomplete entry younger than this may still be in the middle of a publish.
ABANDONED_AFTER_S = 24 * 3600.0

EntryState = Literal["complete", "incomplete", "unreadable"]
Action = Literal["kept", "removed", "would_remove", "busy"]


@dataclass
class CacheEntry:
    repo_id: str
    commit: str
    state: EntryState
    published_at: str | None  # from the manifest; else the folder's modification time
    age_days: float
    size_bytes: int
    semantic_level: str | None = None
    action: Action | None = None
    reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None}


def _iso(seconds: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


def _published_seconds(manifest: dict[str, Any], fallback: float) -> float:
    try:
        stamp = datetime.strptime(str(manifest.get("published_at")), "%Y-%m-%dT%H:%M:%SZ")
    except ValueError:
        return fallback
    return stamp.replace(tzinfo=UTC).timestamp()


def _read_entry(folder: Path, now: float) -> tuple[float, CacheEntry]:
    """(published or last-modified time, entry)."""
    stat = folder.stat()
    size = sum(f.stat().st_size for f in folder.iterdir() if f.is_file())
    state: EntryState = "complete"
    level = None
    seconds = stat.st_mtime
    try:
        manifest = read_manifest(folder)
    except ValueError:
        manifest, state = None, "unreadable"
    if manifest is None:
        state = "unreadable" if state == "unreadable" else "incomplete"
    else:
        seconds = _published_seconds(manifest, stat.st_mtime)
        level = manifest.get("semantic_level")
    return seconds, CacheEntry(folder.parent.name, folder.name, state, _iso(seconds),
                               round((now - seconds) / 86400, 2), size, level)


def list_entries(cache_root: Path, repo_id: str | None = None) -> list[CacheEntry]:
    """Every entry (per repository, newest first); raises for a cache folder that does not exist."""
    if not cache_root.is_dir():
        raise RoslynMapError(ErrorCode.INVALID_ARGUMENT, f"The cache directory {cache_root} does not exist.",
                             "Pass the folder CI publishes to (--cache-dir or ROSLYNMAP_CACHE_DIR).")
    now = time.time()
    repos = [cache_root / repo_id] if repo_id else sorted(p for p in cache_root.iterdir() if p.is_dir())
    if repo_id and not repos[0].is_dir():
        known = ", ".join(sorted(p.name for p in cache_root.iterdir() if p.is_dir())[:5]) or "none"
        raise RoslynMapError(ErrorCode.NOT_FOUND, f"The cache holds no repository '{repo_id}'.",
                             f"Repositories in {cache_root}: {known}.")
    entries: list[CacheEntry] = []
    for repo in repos:
        found = [_read_entry(folder, now) for folder in repo.iterdir() if folder.is_dir()]
        entries.extend(entry for _, entry in sorted(found, key=lambda se: (-se[0], se[1].commit)))
    return entries


def _remove(folder: Path) -> bool:
    """Removes one entry under its publish lock; False when a publisher holds the lock."""
    try:
        with locks.exclusive(folder / LOCK_FILE, timeout=0) as held:
            (folder / MANIFEST_FILE).unlink(missing_ok=True)  # incomplete from here on: no reader uses it
            _clear(folder)
            # Still holding it: a publisher waiting on this lock file sees it gone and locks a new one.
            held.remove_locked(folder_too=True)
    except Timeout:
        return False
    return True


def _clear(folder: Path) -> None:
    """Everything in an entry but its lock file."""
    for item in folder.iterdir():
        if item.is_dir():
            shutil.rmtree(item)
        elif item.name != LOCK_FILE:
            item.unlink(missing_ok=True)


def prune(cache_root: Path, *, older_than_days: float, keep: int, repo_id: str | None = None,
          dry_run: bool = False) -> list[CacheEntry]:
    """Every entry with what was done to it (`action`) and why (`reason`)."""
    if older_than_days < 0 or keep < 0:
        raise RoslynMapError(ErrorCode.INVALID_ARGUMENT, "--older-than and --keep cannot be negative.",
                             "For example: --older-than 30 --keep 10.")
    entries = list_entries(cache_root, repo_id)
    complete_seen: dict[str, int] = {}
    for entry in entries:  # newest first within each repository
        if entry.state == "complete":
            complete_seen[entry.repo_id] = complete_seen.get(entry.repo_id, 0) + 1
            if complete_seen[entry.repo_id] <= keep:
                entry.action, entry.reason = "kept", f"one of the newest {keep}"
                continue
            if entry.age_days < older_than_days:
                entry.action, entry.reason = "kept", f"younger than {older_than_days:g} days"
                continue
            entry.reason = f"older than {older_than_days:g} days and not one of the newest {keep}"
        else:
            if entry.age_days * 86400 < max(ABANDONED_AFTER_S, LOCK_TIMEOUT_S):
                entry.action, entry.reason = "kept", f"{entry.state}, may still be publishing"
                continue
            entry.reason = f"{entry.state} for over a day (an interrupted publish)"
        if dry_run:
            entry.action = "would_remove"
        else:
            entry.action = "removed" if _remove(cache_root / entry.repo_id / entry.commit) else "busy"
    if not dry_run and repo_id is None:
        for repo in cache_root.iterdir():
            with contextlib.suppress(OSError):  # only empty repository folders go
                if repo.is_dir() and not any(repo.iterdir()):
                    os.rmdir(repo)
    return entries
