"""repo_status: what roslynmap knows about a repository right now."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from roslynmap.model.errors import RoslynMapError
from roslynmap.model.kinds import bound_share
from roslynmap.store.paths import baseline_path
from roslynmap.store.reader import open_baseline, project_rows, read_meta
from roslynmap.store.repo import inspect_repo
from roslynmap.workspace import overlays
from roslynmap.workspace.baselines import list_baselines


def head_baseline(path: Path) -> dict[str, Any] | None:
    """HEAD's baseline in brief: its level with the evidence, per project (None when unreadable)."""
    try:
        conn = open_baseline(path)
    except RoslynMapError:
        return None
    meta = read_meta(conn)
    return {
        "semantic_level": meta.get("semantic_level"),
        "level_evidence": meta.get("level_evidence"),
        "projects": [
            {"name": p["name"], "semantic_level": p["semantic_level"], "level_reason": p.get("level_reason"),
             "bound_share": bound_share(int(p.get("resolved_refs") or 0), int(p.get("unresolved_refs") or 0)),
             "missing_reference_errors": p["missing_reference_errors"], "target_framework": p["target_framework"],
             "skipped_frameworks": p.get("skipped_frameworks") or [], "restored": p["restored"]}
            for p in project_rows(conn)
        ],
    }


def repo_status(repo_path: str) -> dict[str, Any]:
    repo = inspect_repo(repo_path)
    baselines = list_baselines(repo.repo_id)
    head = baseline_path(repo.repo_id, repo.commit)
    return {
        "repo_id": repo.repo_id,
        "root": str(repo.root),
        "is_git": repo.is_git,
        "head_commit": repo.commit,
        "branch": repo.branch,
        "clean": repo.clean,
        "dirty_files": list(repo.dirty_files[:20]),
        "dirty_file_count": len(repo.dirty_files),
        "baseline_for_head": head.exists(),
        "head_baseline": head_baseline(head) if head.exists() else None,
        "baselines": [{"commit": p.stem, "size_bytes": p.stat().st_size} for p in baselines[:20]],
        "workspaces": [
            {k: w[k] for k in ("workspace_id", "baseline_commit", "stale", "overlay_revision", "semantic_level")}
            | {"changed_files": len(w["changed_files"])} for w in overlays.summaries(repo)
        ],
    }
