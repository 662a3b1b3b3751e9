"""Where baselines and workspaces live on disk (DESIGN §6)."""

from __future__ import annotations

from pathlib import Path

from roslynmap.model import settings


def home() -> Path:
    return settings.current().home


def repo_dir(repo_id: str) -> Path:
    return home() / "repos" / repo_id


def baselines_dir(repo_id: str) -> Path:
    return repo_dir(repo_id) / "baselines"


def baseline_path(repo_id: str, commit: str) -> Path:
    return baselines_dir(repo_id) / f"{commit}.db"


def logs_dir() -> Path:
    return home() / "logs"
