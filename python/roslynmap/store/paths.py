"""Where baselines and workspaces live on disk (DESIGN §6)."""

from __future__ import annotations

import os
from pathlib import Path


def home() -> Path:
    return Path(os.environ.get("ROSLYNMAP_HOME") or Path.home() / ".roslynmap")


def repo_dir(repo_id: str) -> Path:
    return home() / "repos" / repo_id


def baselines_dir(repo_id: str) -> Path:
    return repo_dir(repo_id) / "baselines"


def baseline_path(repo_id: str, commit: str) -> Path:
    return baselines_dir(repo_id) / f"{commit}.db"


def logs_dir() -> Path:
    return home() / "logs"
