"""Baselines derived from an ancestor's (issue 16): a sequence of commits of testdata/Derive indexed both ways,
incrementally (each commit from the previous one's baseline) and in full, must agree table by table, row
for row (ids and keys translated to what they name; build ids and timestamps aside)."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from roslynmap.roslyn.client import WorkerClient
from roslynmap.store.derive import comparable_tables as tables
from roslynmap.workspace.baselines import EnsureResult, ensure_baseline

from tests.conftest import roslynmap
from tests.repos import GIT_ENV, TESTDATA, make_repo

RATE = "M:Derive.Core.Settings.Rate(Microsoft.Extensions.Configuration.IConfiguration,System.String)"


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True,
                          env={**os.environ, **GIT_ENV})
    return done.stdout.strip()


def commit(repo: Path, message: str) -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD")


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


@pytest.fixture(scope="module")
def worker() -> Iterator[WorkerClient]:
    client = WorkerClient()
    yield client
    client.close()


def index(repo: Path, home: Path, worker: WorkerClient, monkeypatch: pytest.MonkeyPatch, *,
          full: bool) -> EnsureResult:
    monkeypatch.setenv("ROSLYNMAP_HOME", str(home))
    return ensure_baseline(repo, worker=worker, full=full)


def test_a_derived_baseline_equals_a_full_index_commit_after_commit(
        tmp_path: Path, worker: WorkerClient, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = make_repo(TESTDATA / "Derive", tmp_path / "Derive")
    incremental, full = tmp_path / "home-incremental", tmp_path / "home-full"
    core = repo / "src" / "Core"

    first = index(repo, incremental, worker, monkeypatch, full=False)
    assert (first.source, first.derived) == ("built", None)  # no ancestor has a baseline
    c1 = git(repo, "rev-parse", "HEAD")

    def step(parent: str, expected_extracted: int, expected_widened: list[str]) -> dict[str, Any]:
        derived = index(repo, incremental, worker, monkeypatch, full=False)
        whole = index(repo, full, worker, monkeypatch, full=True)
        assert derived.derived is not None and whole.derived is None
        assert derived.derived["from"] == parent, derived.derived
        assert (derived.derived["extracted"], derived.derived["documents"]) == (expected_extracted, 9)
        assert derived.derived["widened_projects"] == expected_widened
        assert derived.derived_note == (f"derived from {parent[:12]} ({expected_extracted} of 9"
                                        " documents re-extracted)")
        left, right = tables(derived.path), tables(whole.path)
        for name in right:
            assert left[name] == right[name], name
        return left

    # 2: a method body changes (and a line is added, so everything below it moves): that document alone, and
    # src/Shared/Build.cs, which Core and Other both compile (a linked document is always extracted again).
    edit(core / "Pricing.cs", "        return price * quantity;", "        var total = price * quantity;\n"
                                                                  "        return total;")
    c2 = commit(repo, "body")
    after_body = step(c1, 2, [])
    # App's QuoteContext (System.Text.Json's generator) uses Core's Quote: App was not extracted again, but its
    # GeneratedUse facts stand at Quote's declaration, one line lower now (18 and 20 before): computed again.
    assert sorted({(f[1], f[3], f[4]) for f in after_body["facts"] if f[0] == "GeneratedUse"}) == [
        ("P:Derive.Core.Quote.Amount", "src/Core/Pricing.cs", 21), ("T:Derive.Core.Quote", "src/Core/Pricing.cs", 19)]
    # Checkout's call to the missing Discount, copied from the ancestor: an error and an unresolved reference.
    assert [d[5] for d in after_body["diagnostics"]] == ["CS1061"]
    assert [r[1] for r in after_body["refs"] if r[0] is None] == ["Discount"]

    # 3: a public signature appears (Checkout's unresolved Discount call now binds): Core and App again, not Other.
    discount = "    public decimal Discount(decimal amount) => amount * 0.9m;\n\n"
    edit(core / "Pricing.cs", "    public string Label(", discount + "    public string Label(")
    c3 = commit(repo, "signature")
    after_signature = step(c2, 8, ["App", "Core"])
    assert not any(d[5] == "CS1061" for d in after_signature["diagnostics"])

    # 4: a file added and one deleted.
    (core / "Obsolete.cs").unlink()
    (core / "Tax.cs").write_text("namespace Derive.Core;\n\npublic static class Tax\n{\n"
                                 "    public static decimal Rate => 0.2m;\n}\n")
    c4 = commit(repo, "files")
    step(c3, 8, ["App", "Core"])

    # 5: a partial part's body changes: both parts of Order are extracted again (the type's row spans them).
    edit(core / "Order.Totals.cs", "pricing.Total(line, 1)", "pricing.Total(line, 2)")
    c5 = commit(repo, "partial body")
    step(c4, 3, [])

    # 6: a helper's body changes the key it reads through its parameter: App's call reads `tax:Percent` now, so
    # Core and App are extracted again (a ConfigFlow fact is part of what other documents depend on).
    assert [(f[0], f[1], f[7]) for f in after_signature["facts"] if f[0] in ("Config", "ConfigFlow")] == [
        ("Config", "M:Derive.App.Report.Tax(Microsoft.Extensions.Configuration.IConfiguration)", "tax:Rate"),
        ("Config", RATE, '{$"{name}:Rate"}'), ("ConfigFlow", RATE, "{s0}{p1}:Rate")]
    edit(core / "Settings.cs", '$"{name}:Rate"', '$"{name}:Percent"')
    c6 = commit(repo, "flow")
    after_flow = step(c5, 8, ["App", "Core"])
    assert [(f[0], f[7]) for f in after_flow["facts"] if f[0] in ("Config", "ConfigFlow")] == [
        ("Config", "tax:Percent"), ("Config", '{$"{name}:Percent"}'), ("ConfigFlow", "{s0}{p1}:Percent")]

    # 6b: a command helper stops running its `text` parameter: App's call runs no SQL now, so Core and App are
    # extracted again (a SqlFlow fact, as a ConfigFlow one).
    assert [(f[0], f[7]) for f in after_flow["facts"] if f[0] in ("DbTable", "SqlFlow")] == [
        ("DbTable", "TaxRates"), ("SqlFlow", "{p1}")]
    edit(core / "Settings.cs", "command.CommandText = text;", 'command.CommandText = "SELECT 1";')
    c6b = commit(repo, "sql flow")
    after_sql = step(c6, 8, ["App", "Core"])
    assert not [f for f in after_sql["facts"] if f[0] in ("DbTable", "SqlFlow")]

    # The CLI says so, and --push publishes the derived baseline; a machine with an empty local store derives
    # the next commit from the one the cache holds.
    clock = repo / "src" / "Other" / "Clock.cs"
    cache_dir = tmp_path / "cache"
    edit(clock, "DateTime.UtcNow", "DateTime.Now")
    c7 = commit(repo, "clock")
    done = roslynmap("index", str(repo), "--json", "--push", "--cache-dir", str(cache_dir),
                     env={"ROSLYNMAP_HOME": str(incremental)})
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"roslynmap: derived from {c6b[:12]} (2 of 9 documents re-extracted)" in done.stderr
    summary = json.loads(done.stdout)
    assert (summary["derived"]["from"], summary["push"]["status"]) == (c6b, "published")
    edit(clock, "Now().Hour", "Now().Minute")
    commit(repo, "minute")
    done = roslynmap("index", str(repo), "--json", "--cache-dir", str(cache_dir),
                     env={"ROSLYNMAP_HOME": str(tmp_path / "home-elsewhere")})
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"roslynmap: derived from {c7[:12]} (2 of 9 documents re-extracted)" in done.stderr
