"""A workspace's record on disk: `workspaces/<id>.json` beside its overlay `<id>.db` (docs/workspaces.md).

Ids, paths, reading and atomically writing records. No locking here (locking.py), no worker."""

from __future__ import annotations

import calendar
import json
import os
import re
import time
import uuid
from pathlib import Path
from typing import Any

from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.store.paths import repo_dir
from roslynmap.store.reader import open_baseline, read_meta

ID_PATTERN = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


def now_iso(epoch: float | None = None) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() if epoch is None else epoch))


def workspaces_dir(repo_id: str) -> Path:
    return repo_dir(repo_id) / "workspaces"


def record_path(repo_id: str, workspace_id: str) -> Path:
    return workspaces_dir(repo_id) / f"{workspace_id}.json"


def overlay_path(repo_id: str, workspace_id: str) -> Path:
    return workspaces_dir(repo_id) / f"{workspace_id}.db"


def lock_path(repo_id: str, workspace_id: str) -> Path:
    return workspaces_dir(repo_id) / f"{workspace_id}.lock"


def validate_id(workspace_id: str) -> str:
    if not ID_PATTERN.match(workspace_id or ""):
        raise RoslynMapError(ErrorCode.INVALID_ARGUMENT, f"Invalid workspace_id '{workspace_id}'.",
                             "Use 1 to 64 characters among letters, digits, '_', '.' and '-', e.g. "
                             "workspace_id=\"agent-1\".")
    return workspace_id


def list_ids(repo_id: str) -> list[str]:
    folder = workspaces_dir(repo_id)
    if not folder.exists():
        return []
    return sorted(p.stem for p in folder.glob("*.json") if ID_PATTERN.match(p.stem))


def read_record(repo_id: str, workspace_id: str) -> dict[str, Any] | None:
    try:
        record: dict[str, Any] = json.loads(record_path(repo_id, workspace_id).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except ValueError:
        return None
    return record


def not_found(repo_id: str, workspace_id: str) -> RoslynMapError:
    existing = list_ids(repo_id)
    hint = (f"Existing workspaces: {', '.join(existing[:10])}. Or create it: workspace_create(workspace_id="
            f"\"{workspace_id}\")." if existing else
            f"No workspace exists yet: workspace_create(workspace_id=\"{workspace_id}\").")
    return RoslynMapError(ErrorCode.WORKSPACE_NOT_FOUND, f"No workspace '{workspace_id}' in this repository.", hint,
                          candidates=[{"workspace_id": w} for w in existing[:10]])


def require_record(repo_id: str, workspace_id: str) -> dict[str, Any]:
    record = read_record(repo_id, validate_id(workspace_id))
    if record is None:
        raise not_found(repo_id, workspace_id)
    return record


def write_record(repo_id: str, record: dict[str, Any]) -> None:
    final = record_path(repo_id, record["workspace_id"])
    final.parent.mkdir(parents=True, exist_ok=True)
    temp = final.with_name(f".{final.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    temp.write_text(json.dumps(record, indent=1, sort_keys=True), encoding="utf-8")
    os.replace(temp, final)


def baseline_solution(path: Path) -> str | None:
    if not path.exists():
        return None
    solution = read_meta(open_baseline(path)).get("solution")
    return str(solution) if solution else None


def parse_iso(text: str | None) -> float:
    if not text:
        return 0.0
    try:
        return float(calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ")))
    except ValueError:
        return 0.0
