"""The fast tier: store, query and envelope over small baselines written in process (tests/fast/batches.py).

No MSBuild, no worker, no MCP subprocess: `python build.py test --fast` runs this folder alone.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from roslynmap.mcp import api
from roslynmap.model import settings
from roslynmap.store.repo import RepoInfo

from tests.fast.batches import shop, write_baseline

Call = Callable[..., dict[str, Any]]


@pytest.fixture(autouse=True)
def default_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast tier checks the default short ids (tests/conftest.py pins full ids for the integration tier)."""
    monkeypatch.delenv(settings.IDS, raising=False)


@pytest.fixture(scope="session")
def shop_repo(tmp_path_factory: pytest.TempPathFactory, home: Path) -> RepoInfo:
    return write_baseline(tmp_path_factory.mktemp("fast") / "Shop", shop())


@pytest.fixture(scope="session")
def call(shop_repo: RepoInfo) -> Call:
    """One tool call in process, exactly as the server answers it (the envelope)."""
    allowed = api.confinement([str(shop_repo.root)])

    def run(tool: str, **args: Any) -> dict[str, Any]:
        return api.call(tool, args, str(shop_repo.root), allowed)

    return run
