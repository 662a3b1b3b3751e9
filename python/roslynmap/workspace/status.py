"""repo_status: what roslynmap knows about a repository right now."""

from __future__ import annotations

from typing import Any

from roslynmap.store.paths import baseline_path
from roslynmap.store.repo import inspect_repo
from roslynmap.workspace import overlays
from roslynmap.workspace.baselines import list_baselines


def repo_status(repo_path: str) -> dict[str, Any]:
    repo = inspect_repo(repo_path)
    baselines = list_baselines(repo.repo_id)
    return {
        "repo_id": repo.repo_id,
        "root": str(repo.root),
        "is_git": repo.is_git,
        "head_commit": repo.commit,
        "branch": repo.branch,
        "clean": repo.clean,
        "dirty_files": list(repo.dirty_files[:20]),
        "dirty_file_count": len(repo.dirty_files),
        "baseline_for_head": baseline_path(repo.repo_id, repo.commit).exists(),
        "baselines": [{"commit": p.stem, "size_bytes": p.stat().st_size} for p in baselines[:20]],
        "workspaces": [
            {k: w[k] for k in ("workspace_id", "baseline_commit", "stale", "overlay_revision", "semantic_level")}
            | {"changed_files": len(w["changed_files"])} for w in overlays.summaries(repo)
        ],
    }
