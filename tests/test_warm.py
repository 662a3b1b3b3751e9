"""The background solution load (issue 16, workspace/warm.py): started by workspace_create, bounded by
settings, it leaves the first overlay refresh of the process warm."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from roslynmap.mcp.api import warm_repository
from roslynmap.roslyn.client import WorkerClient
from roslynmap.store.repo import inspect_repo
from roslynmap.workspace import overlays, warm
from roslynmap.workspace.baselines import ensure_baseline

from tests.repos import TESTDATA, make_repo


@pytest.fixture()
def worker() -> Iterator[WorkerClient]:
    client = WorkerClient()
    yield client
    client.close()


def test_bounded_by_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = inspect_repo(make_repo(TESTDATA / "Derive", tmp_path / "Derive", restore=False))
    monkeypatch.setenv("ROSLYNMAP_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("ROSLYNMAP_WARM_LOAD", "0")
    assert warm.start(repo) == "off"
    monkeypatch.setenv("ROSLYNMAP_WARM_LOAD", "1")
    monkeypatch.setenv("ROSLYNMAP_WARM_MIN_FREE_MB", str(10**9))  # more than any machine has
    assert warm.start(repo) == "low_memory"
    assert warm_repository(str(repo.root)) == "no_workspaces"  # serve --repo: nothing to warm for
    assert warm.status(repo) == []


def test_the_first_refresh_after_a_background_load_is_warm(
        tmp_path: Path, worker: WorkerClient, monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_repo(TESTDATA / "Derive", tmp_path / "Derive")
    monkeypatch.setenv("ROSLYNMAP_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("ROSLYNMAP_WARM_LOAD", "1")
    monkeypatch.setenv("ROSLYNMAP_WARM_MIN_FREE_MB", "1")
    ensure_baseline(root, worker=worker)
    repo = inspect_repo(root)
    overlays.create(repo, "w", None)
    assert warm.start(repo, worker=worker) == "started"
    assert warm.start(repo, worker=worker) == "already"
    [loaded] = warm.wait(repo, 600)
    assert (loaded["state"], loaded["cold"], loaded["solution"]) == ("loaded", True, str(root / "Derive.slnx"))
    assert loaded["load_seconds"] > 0

    pricing = root / "src" / "Core" / "Pricing.cs"
    pricing.write_text(pricing.read_text().replace("price * quantity", "quantity * price"))
    result = overlays.refresh(repo, "w", worker=worker)
    assert (result.cold, result.load_seconds, result.extracted) == (False, 0.0, ["src/Core/Pricing.cs"])
