"""Test repositories: a testdata folder copied into its own git repository, restored."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTDATA = ROOT / "testdata"
GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
           "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z"}


def make_repo(source: Path, dest: Path, restore: bool = True) -> Path:
    """A copy of a testdata folder as its own git repository with one commit (and restored)."""
    shutil.copytree(source, dest, ignore=shutil.ignore_patterns("bin", "obj"))
    # testdata shares Directory.Build.* files at its root; a copied repo needs them too.
    for extra in [*TESTDATA.glob("Directory.Build.*"), TESTDATA / ".gitignore"]:
        shutil.copy2(extra, dest / extra.name)
    env = {**os.environ, **GIT_ENV}
    for cmd in (["git", "init", "-q", "-b", "main"], ["git", "add", "-A"], ["git", "commit", "-q", "-m", "init"]):
        subprocess.run(cmd, cwd=dest, check=True, env=env)
    if restore:
        subprocess.run(["dotnet", "restore", "-v", "q"], cwd=dest, check=True, capture_output=True, timeout=600)
    return dest
