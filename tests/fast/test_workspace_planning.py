"""Workspace lifecycle, locking and refresh planning without a worker (the refresh itself needs one)."""

from __future__ import annotations

from pathlib import Path

import pytest
from roslynmap.model.errors import RoslynMapError
from roslynmap.store.paths import baseline_path
from roslynmap.store.repo import RepoInfo
from roslynmap.workspace import overlays
from roslynmap.workspace.changes import plan_refresh

from tests.fast.batches import shop, write_baseline


@pytest.fixture()
def repo(tmp_path: Path, home: Path) -> RepoInfo:
    return write_baseline(tmp_path / "Shop", shop())


def test_create_is_idempotent_and_delete_leaves_nothing(repo: RepoInfo) -> None:
    record, created = overlays.create(repo, "agent-1")
    assert created is True and record["baseline_commit"] == repo.commit and record["overlay_revision"] == 0
    assert overlays.create(repo, "agent-1") == (record, False)
    assert overlays.list_ids(repo.repo_id) == ["agent-1"]
    assert [s["workspace_id"] for s in overlays.summaries(repo)] == ["agent-1"]
    overlays.delete(repo, "agent-1")
    assert sorted(p.name for p in overlays.workspaces_dir(repo.repo_id).iterdir()) == []


def test_bad_and_unknown_ids_are_errors_that_leave_no_lock(repo: RepoInfo) -> None:
    with pytest.raises(RoslynMapError) as bad:
        overlays.validate_id("../x")
    assert bad.value.code == "INVALID_ARGUMENT"
    with pytest.raises(RoslynMapError) as missing:
        overlays.reset(repo, "nobody")
    assert missing.value.code == "WORKSPACE_NOT_FOUND"
    assert not overlays.workspaces_dir(repo.repo_id).exists() or \
        list(overlays.workspaces_dir(repo.repo_id).glob("*.lock")) == []


def test_plan_from_git_finds_changed_added_and_deleted_files(repo: RepoInfo) -> None:
    orders, callers = repo.root / "src/Shop/Orders.cs", repo.root / "src/Shop/Callers.cs"
    orders.write_text(orders.read_text().replace("int Id", "long Id"))
    (repo.root / "src/Shop/New.cs").write_text("namespace Shop;\npublic class New { }\n")
    callers.unlink()
    (repo.root / "obj").mkdir()
    (repo.root / "obj/Gen.cs").write_text("class Gen { }\n")  # build output: never in an overlay
    baseline = baseline_path(repo.repo_id, repo.commit)
    plan = plan_refresh(repo, repo.commit, baseline, {}, None)
    assert {p: f["state"] for p, f in plan.files.items()} == {
        "src/Shop/Callers.cs": "deleted", "src/Shop/New.cs": "added", "src/Shop/Orders.cs": "changed"}
    assert (plan.extract, plan.deleted_now, plan.dropped, plan.outside) == (
        ["src/Shop/New.cs", "src/Shop/Orders.cs"], ["src/Shop/Callers.cs"], [], [])
    assert plan.texts["src/Shop/New.cs"] == "namespace Shop;\npublic class New { }\n"
    # The same files again, as the previous overlay holds them: nothing to extract.
    before = {p: {"state": f["state"], "sha1": f.get("sha1")} for p, f in plan.files.items()}
    again = plan_refresh(repo, repo.commit, baseline, before, None)
    assert (again.extract, again.deleted_now, again.dropped) == ([], [], [])
    # file_paths mode: Orders.cs restored on disk leaves the overlay (dropped); the rest stays.
    orders.write_text(orders.read_text().replace("long Id", "int Id"))
    given = plan_refresh(repo, repo.commit, baseline, before, ["src/Shop/Orders.cs"])
    assert {p: f["state"] for p, f in given.files.items()}["src/Shop/Orders.cs"] == "changed"
    restored = plan_refresh(repo, repo.commit, baseline, before, None)
    assert restored.dropped == ["src/Shop/Orders.cs"]
