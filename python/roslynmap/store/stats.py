"""Per-repository usage totals (calls, tokens emitted, tokens saved), accumulated in memory and
merged into `repos/<repo_id>/stats.json` under a file lock, so concurrent servers add up."""

from __future__ import annotations

import atexit
import json
import threading
import time
from pathlib import Path
from typing import Any

from filelock import FileLock

from roslynmap.store.paths import repo_dir

FLUSH_SECONDS = 30.0
_pending: dict[str, dict[str, dict[str, int]]] = {}
_lock = threading.Lock()
_last_flush = time.monotonic()


def stats_path(repo_id: str) -> Path:
    return repo_dir(repo_id) / "stats.json"


def record(repo_id: str, tool: str, emitted: int, saved: int) -> None:
    global _last_flush
    with _lock:
        per_tool = _pending.setdefault(repo_id, {}).setdefault(tool, {"calls": 0, "tokens_emitted": 0,
                                                                      "tokens_saved": 0})
        per_tool["calls"] += 1
        per_tool["tokens_emitted"] += emitted
        per_tool["tokens_saved"] += saved
        due = time.monotonic() - _last_flush > FLUSH_SECONDS
    if due:
        flush()


def flush() -> None:
    global _last_flush
    with _lock:
        pending = dict(_pending)
        _pending.clear()
        _last_flush = time.monotonic()
    for repo_id, tools in pending.items():
        path = stats_path(repo_id)
        path.parent.mkdir(parents=True, exist_ok=True)
        with FileLock(str(path) + ".lock", timeout=10):
            totals = read(repo_id)
            for tool, numbers in tools.items():
                current = totals.setdefault(tool, {"calls": 0, "tokens_emitted": 0, "tokens_saved": 0})
                for key, value in numbers.items():
                    current[key] = current.get(key, 0) + value
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps(totals, indent=1, sort_keys=True))
            tmp.replace(path)


def read(repo_id: str) -> dict[str, Any]:
    path = stats_path(repo_id)
    try:
        data: dict[str, Any] = json.loads(path.read_text())
        return data
    except (OSError, ValueError):
        return {}


atexit.register(flush)
