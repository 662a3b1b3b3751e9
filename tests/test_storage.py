"""Baseline files and CI semantics on the small Hierarchy sample: rollback-journal baselines read
immutable (no -wal/-shm beside them), build outputs never make a tree dirty, `git status -z` parsing,
types_hierarchy below implementers, cache entry locks a prune may delete, worker log pruning, and which overrides a
call can run from its receiver (graph_callers, tests_find)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from roslynmap.roslyn.client import prune_logs
from roslynmap.store import cache, cache_admin
from roslynmap.store.repo import RepoInfo, inspect_repo
from roslynmap.store.schema import SCHEMA_VERSION

from tests.conftest import roslynmap
from tests.mcp_client import McpServerProcess
from tests.repos import GIT_ENV, TESTDATA, make_repo


@dataclass
class Indexed:
    repo: Path
    home: Path
    store: Path
    info: RepoInfo
    first: subprocess.CompletedProcess[str]


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True,
                          env={**os.environ, **GIT_ENV}).stdout


@pytest.fixture(scope="module")
def hierarchy(tmp_path_factory: pytest.TempPathFactory) -> Indexed:
    """testdata/Hierarchy restored (obj/ written) in a repository WITHOUT .gitignore, then indexed and
    pushed once by the CLI: the case where only the indexer's own obj/ files made the tree "dirty"."""
    root = tmp_path_factory.mktemp("hierarchy")
    repo = make_repo(TESTDATA / "Hierarchy", root / "Hierarchy")
    git(repo, "rm", "-q", ".gitignore")
    git(repo, "commit", "-q", "-m", "no .gitignore")
    home, store = root / "home", root / "cache"
    first = roslynmap("index", str(repo), "--push", "--cache-dir", str(store), "--json",
                      env={"ROSLYNMAP_HOME": str(home)})
    return Indexed(repo, home, store, inspect_repo(repo), first)


def test_build_outputs_never_make_a_tree_dirty_so_the_push_publishes(hierarchy: Indexed) -> None:
    assert hierarchy.first.returncode == 0, hierarchy.first.stdout + hierarchy.first.stderr
    out = json.loads(hierarchy.first.stdout)
    entry = hierarchy.store / hierarchy.info.repo_id / hierarchy.info.commit
    assert (out["source"], out["semantic_level"], out["push"]["status"], out["push"]["pushed"]) == (
        "built", "full", "published", True)
    # git sees restore's and the indexer's outputs, untracked; roslynmap does not count them.
    untracked = git(hierarchy.repo, "status", "--porcelain", "--untracked-files=all").splitlines()
    assert "?? src/Hierarchy/obj/Hierarchy.csproj.nuget.g.props" in untracked
    assert "?? src/Hierarchy/obj/Debug/net10.0/Hierarchy.AssemblyInfo.cs" in untracked
    assert all(line.startswith("?? src/Hierarchy/obj/") for line in untracked)
    assert (hierarchy.info.dirty_files, hierarchy.info.clean) == ((), True)
    assert sorted(p.name for p in entry.iterdir()) == [".lock", "baseline.db", "manifest.json"]


def test_a_push_that_publishes_nothing_exits_3(hierarchy: Indexed, tmp_path: Path) -> None:
    """A real uncommitted C# change: the baseline is not the commit's, the push is skipped, CI fails."""
    shapes = hierarchy.repo / "src/Hierarchy/Shapes.cs"
    original = shapes.read_text()
    shapes.write_text(original + "\npublic class Circle : Shape\n{\n}\n")
    try:
        done = roslynmap("index", str(hierarchy.repo), "--force", "--push", "--cache-dir", str(tmp_path / "c"),
                         "--json", env={"ROSLYNMAP_HOME": str(tmp_path / "home")})
    finally:
        shapes.write_text(original)
    assert done.returncode == 3, done.stdout + done.stderr
    short = hierarchy.info.commit[:12]
    message = (f"Not pushed: the baseline for {short} was indexed with uncommitted changes to "
               "src/Hierarchy/Shapes.cs; it is not the commit's. Index a clean checkout to publish.")
    assert json.loads(done.stdout)["push"] == {
        "status": "skipped_dirty", "pushed": False,
        "entry": str(tmp_path / "c" / hierarchy.info.repo_id / hierarchy.info.commit), "message": message}
    assert f"roslynmap: {message}\n" in done.stderr


def descendants(server: McpServerProcess, args: dict[str, Any]) -> list[tuple[str, str, int]]:
    env = server.call("types_hierarchy", args)
    assert env["ok"], env
    return [(d["symbol_id"], d["relation"], d["depth"]) for d in env["data"]["descendants"]]


def test_hierarchy_finds_every_class_below_an_implementer_and_leaves_no_side_files(hierarchy: Indexed) -> None:
    baselines = hierarchy.home / "repos" / hierarchy.info.repo_id / "baselines"
    baseline = baselines / f"{hierarchy.info.commit}.db"
    server = McpServerProcess(hierarchy.repo, {"ROSLYNMAP_HOME": str(hierarchy.home), "ROSLYNMAP_CACHE_DIR": ""})
    try:
        assert descendants(server, {"symbol_id": "T:Hierarchy.IShape"}) == [
            ("T:Hierarchy.ISolid", "implements", 1), ("T:Hierarchy.Shape", "implements", 1),
            ("T:Hierarchy.Polygon", "implements", 2), ("T:Hierarchy.Square", "implements", 3),
            ("T:Hierarchy.UnitSquare", "implements", 4)]
        assert descendants(server, {"symbol_id": "T:Hierarchy.IShape", "transitive": True}) == [
            ("T:Hierarchy.ISolid", "implements", 1), ("T:Hierarchy.Shape", "implements", 1),
            ("T:Hierarchy.Cube", "implements", 2), ("T:Hierarchy.Polygon", "implements", 2),
            ("T:Hierarchy.BigCube", "implements", 3), ("T:Hierarchy.Square", "implements", 3),
            ("T:Hierarchy.UnitSquare", "implements", 4)]
        assert descendants(server, {"symbol_id": "T:Hierarchy.Shape", "transitive": True}) == [
            ("T:Hierarchy.Polygon", "derives", 1), ("T:Hierarchy.Square", "derives", 2),
            ("T:Hierarchy.UnitSquare", "derives", 3)]
        # More readers at once, in other processes, while the server holds its connection open.
        procs = [subprocess.Popen([sys.executable, "-m", "roslynmap.cli", "call", "symbols_search",
                                   json.dumps({"query": "Square"}), "--repo", str(hierarchy.repo)],
                                  stdout=subprocess.PIPE, text=True,
                                  env={**os.environ, "ROSLYNMAP_HOME": str(hierarchy.home), "ROSLYNMAP_CACHE_DIR": ""})
                 for _ in range(3)]
        assert [json.loads(p.communicate(timeout=120)[0])["ok"] for p in procs] == [True, True, True]
        assert sorted(p.name for p in baselines.iterdir()) == [baseline.name]
    finally:
        server.close()
    assert sorted(p.name for p in baselines.iterdir()) == [baseline.name]
    # File format bytes 18-19: 1/1 is a rollback-journal database, 2/2 would be WAL.
    assert baseline.read_bytes()[18:20] == b"\x01\x01"
    assert sqlite3.connect(baseline).execute("PRAGMA journal_mode").fetchone() == ("delete",)


def test_git_status_parsing_handles_renames_spaces_and_build_outputs(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    (repo / "src").mkdir(parents=True)
    for name in ("old name.cs", "a.cs", "keep.cs"):
        (repo / "src" / name).write_text(f"// {name}\n")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "init")
    git(repo, "mv", "src/old name.cs", "src/new name.cs")  # staged rename: `R  new\0old\0`
    (repo / "src/a.cs").write_text("// changed\n")  # ` M` first: a leading space that must survive
    (repo / "src/keep.cs").write_text("// staged\n")
    git(repo, "add", "src/keep.cs")
    (repo / "src/keep.cs").write_text("// staged, then changed again\n")  # `MM`
    (repo / "ünïcode file.cs").write_text("// new\n")
    for output in ("src/obj/Debug/x.AssemblyInfo.cs", "src/Bin/y.dll", "artifacts/obj/z.props"):
        (repo / output).parent.mkdir(parents=True, exist_ok=True)
        (repo / output).write_text("")
    info = inspect_repo(repo)
    assert info.dirty_files == ("src/a.cs", "src/keep.cs", "src/new name.cs", "src/old name.cs", "ünïcode file.cs")


def fake_baseline(path: Path, commit: str) -> Path:
    """The least publish() accepts: a meta table of the current schema, full, for `commit`."""
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT)")
    conn.executemany("INSERT INTO meta VALUES (?,?)", [("schema_version", json.dumps(SCHEMA_VERSION)),
                                                       ("commit", commit), ("semantic_level", "full")])
    conn.commit()
    conn.close()
    return path


PUBLISH = ("import sys; from pathlib import Path; from roslynmap.store import cache; print('waiting', flush=True); "
           "print(cache.publish(Path(sys.argv[1]), 'repo', sys.argv[2], Path(sys.argv[3])).status)")


def test_a_publisher_waiting_while_a_prune_removes_the_entry_publishes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two processes: a prune removes an entry, lock file and folder included, while a publisher of the
    same commit waits on that lock. The publisher must lock afresh and publish, not hold a lock on a
    deleted file in a deleted folder."""
    store, old = tmp_path / "cache", "a" * 40
    entry = cache.publish(store, "repo", old, fake_baseline(tmp_path / "old.db", old)).entry
    manifest = json.loads((entry / "manifest.json").read_text())
    (entry / "manifest.json").write_text(json.dumps({**manifest, "published_at": "2020-01-01T00:00:00Z"}))
    baseline = fake_baseline(tmp_path / "new.db", old)
    publisher: list[subprocess.Popen[str]] = []
    clear = cache_admin._clear

    def clear_while_a_publisher_waits(folder: Path) -> None:
        proc = subprocess.Popen([sys.executable, "-c", PUBLISH, str(store), old, str(baseline)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        publisher.append(proc)
        assert proc.stdout is not None and proc.stdout.readline() == "waiting\n"
        time.sleep(1.0)  # it is polling the lock this prune holds
        assert proc.poll() is None
        clear(folder)

    monkeypatch.setattr(cache_admin, "_clear", clear_while_a_publisher_waits)
    pruned = cache_admin.prune(store, older_than_days=1, keep=0)
    assert [(e.commit, e.action) for e in pruned] == [(old, "removed")]
    out, err = publisher[0].communicate(timeout=60)
    assert (publisher[0].returncode, out, err) == (0, "published\n", "")
    assert sorted(p.name for p in entry.iterdir()) == [".lock", "baseline.db", "manifest.json"]
    assert cache.verify_entry(entry, json.loads((entry / "manifest.json").read_text()), "repo", old) is None


def test_worker_logs_keep_the_newest_and_recent_ones(tmp_path: Path) -> None:
    now = 1_800_000_000.0
    ages_h = {f"worker-1-{i:02d}.log": float(i) * 2 for i in range(25)}  # 0, 2, 4 ... 48 hours old
    ages_h |= {"worker-9-a.log": 0.5, "worker-9-b.log": 0.9}  # live workers of other processes, maybe
    for name, hours in ages_h.items():
        path = tmp_path / name
        path.write_text("log")
        os.utime(path, (now - hours * 3600, now - hours * 3600))
    (tmp_path / "other.log").write_text("not a worker log")
    os.utime(tmp_path / "other.log", (0, 0))
    gone = prune_logs(tmp_path, keep=2, now=now)
    assert sorted(p.name for p in gone) == [f"worker-1-{i:02d}.log" for i in range(1, 25)]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "other.log", "worker-1-00.log", "worker-9-a.log", "worker-9-b.log"]


def test_the_exit_code_table_in_docs_matches_the_cli() -> None:
    from roslynmap import cli

    text = (Path(__file__).resolve().parents[1] / "docs/ci.md").read_text()
    table = text.split("### Exit codes", 1)[1].split("\n\n", 2)[1]
    rows = {int(line.split("|")[1]): line for line in table.splitlines() if line.split("|")[1].strip().isdigit()}
    codes = {cli.EXIT_OK, cli.EXIT_FAILED, cli.EXIT_DEGRADED, cli.EXIT_NOT_PUSHED}
    assert sorted(rows) == sorted(codes) == [0, 1, 2, 3]
    assert all(f"`{status}`" in rows[cli.EXIT_NOT_PUSHED] for status in cli.NOT_PUSHED)


def test_the_recorded_dirty_files_put_index_inputs_first() -> None:
    """Only 50 are recorded: 60 untracked notes must not hide the one C# change that forbids a push."""
    notes = [f"notes/{i:02d}.md" for i in range(60)]
    assert cache.dirty_for_meta([*notes, "src/A.cs"]) == ["src/A.cs", *notes[:49]]


def test_a_call_runs_only_the_overrides_its_receiver_allows(hierarchy: Indexed) -> None:
    """testdata/Hierarchy/src/Hierarchy/Printers.cs: `base.Name()` runs no override, `Name()` on this only
    those of the caller's own class line, `printer.Name()` every override."""
    server = McpServerProcess(hierarchy.repo, {"ROSLYNMAP_HOME": str(hierarchy.home), "ROSLYNMAP_CACHE_DIR": "",
                                               "ROSLYNMAP_IDS": "full"})
    p = "Hierarchy."

    def edges(tool: str, symbol_id: str) -> list[tuple[str, str, str | None]]:
        env = server.call(tool, {"symbol_id": p + symbol_id})
        assert env["ok"], env
        return sorted((n["symbol_id"].removeprefix("M:" + p), e["kind"],
                       (e.get("via") or "").removeprefix("M:" + p) or None)
                      for n in env["data"]["nodes"] for e in n["edges"])

    try:
        # Calls on `base`: the member named, no dispatch.
        assert edges("graph_callees", "LaserPrinter.Name") == [("Printer.Name", "Call", None)]
        assert edges("graph_callees", "ColorLaserPrinter.Name") == [("LaserPrinter.Name", "Call", None)]
        # On this, from LaserPrinter (the compiler names its own override): that and the one below it.
        assert edges("graph_callees", "LaserPrinter.Label") == [
            ("ColorLaserPrinter.Name", "Dispatch", "LaserPrinter.Name"), ("LaserPrinter.Name", "Call", None)]
        # On this from Printer, and on another receiver: every override.
        assert edges("graph_callees", "Printer.Banner") == [
            ("ColorLaserPrinter.Name", "Dispatch", "Printer.Name"), ("InkPrinter.Name", "Dispatch", "Printer.Name"),
            ("LaserPrinter.Name", "Dispatch", "Printer.Name"), ("Printer.Name", "Call", None)]
        # Callers of InkPrinter.Name: Banner (this may be an InkPrinter) and Describe; not LaserPrinter.Name's
        # base call. Of ColorLaserPrinter.Name: Label (this may be one), not its own base call.
        assert edges("graph_callers", "InkPrinter.Name") == [
            ("InkPrinter.Describe(Hierarchy.Printer)", "Call", "Printer.Name"),
            ("Printer.Banner", "Call", "Printer.Name")]
        assert edges("graph_callers", "ColorLaserPrinter.Name") == [
            ("InkPrinter.Describe(Hierarchy.Printer)", "Call", "Printer.Name"),
            ("LaserPrinter.Label", "Call", "LaserPrinter.Name"), ("Printer.Banner", "Call", "Printer.Name")]
        # Its own base call names the member it runs (LaserPrinter.Name): no override runs.
        assert edges("graph_callers", "Printer.Name") == [
            ("InkPrinter.Describe(Hierarchy.Printer)", "Call", None), ("LaserPrinter.Name", "Call", None),
            ("Printer.Banner", "Call", None)]
    finally:
        server.close()


def test_an_event_handler_is_reached_only_where_its_event_is_published(hierarchy: Indexed) -> None:
    """Events.cs: `PublishEvent<TEvent>` calls `IHandle<TEvent>.Handle`, so Mailer's OrderPlaced handler is called by
    the publishers of OrderPlaced only (Sonarr: every handler had all 81 publishers of any event as callers), through
    a generic relay when its caller passes OrderPlaced; a call on `IHandle<StockLow>` runs Restocker's handler only;
    the contravariant IObserve<in T> is never narrowed. The same type arguments narrow callees and the trace."""
    server = McpServerProcess(hierarchy.repo, {"ROSLYNMAP_HOME": str(hierarchy.home), "ROSLYNMAP_CACHE_DIR": "",
                                               "ROSLYNMAP_IDS": "full"})
    p = "Hierarchy.Events."

    def walk(tool: str, symbol_id: str, depth: int = 3) -> list[tuple[str, int]]:
        args = {"entry_point" if tool == "graph_trace_feature" else "symbol_id": symbol_id, "depth": depth}
        env = server.call(tool, args)
        assert env["ok"], env
        return sorted(((n["symbol_id"].removeprefix("M:" + p), n["depth"]) for n in env["data"]["nodes"]),
                      key=lambda nd: (nd[1], nd[0]))

    relay, publish = "Orders.Relay``1(``0)", "EventAggregator.PublishEvent``1(``0)"
    try:
        assert walk("graph_callers", f"M:{p}Mailer.Handle({p}OrderPlaced)") == [
            (publish, 1), ("Orders.Place(System.Int32)", 2), (relay, 2), ("Orders.Replay(System.Int32)", 3)]
        assert walk("graph_callers", f"M:{p}Mailer.Handle({p}OrderShipped)") == [
            (publish, 1), (relay, 2), ("Orders.Ship(System.Int32)", 2)]
        # Direct calls on IHandle<StockLow>; Relay's only caller passes OrderPlaced, so it stops there.
        assert walk("graph_callers", f"M:{p}Restocker.Handle({p}StockLow)") == [
            (publish, 1), ("Warehouse.Direct(Hierarchy.Events.IHandle{Hierarchy.Events.StockLow})", 1), (relay, 2),
            ("Warehouse.Check(System.String)", 2)]
        assert walk("graph_callers", f"M:{p}AuditTrail.Observe({p}IEvent)") == [
            (publish, 1), ("Orders.Place(System.Int32)", 2), (relay, 2), ("Orders.Ship(System.Int32)", 2),
            ("Warehouse.Check(System.String)", 2), ("Orders.Replay(System.Int32)", 3)]
        handlers = [(n, d) for n, d in walk("graph_callees", "M:" + p + "Orders.Replay(System.Int32)", 4)
                    if "Handle(" in n or "Observe(" in n]
        assert handlers == [("AuditTrail.Observe(Hierarchy.Events.IEvent)", 3), ("IHandle`1.Handle(`0)", 3),
                            ("IObserve`1.Observe(`0)", 3), ("Mailer.Handle(Hierarchy.Events.OrderPlaced)", 3)]
        assert [(n, d) for n, d in walk("graph_trace_feature", "M:" + p + "Orders.Replay(System.Int32)", 4)
                if "Handle(" in n or "Observe(" in n] == handlers
        assert walk("graph_callees", f"M:{p}Warehouse.Direct({p}IHandle{{{p}StockLow}})", 1) == [
            ("IHandle`1.Handle(`0)", 1), ("Restocker.Handle(Hierarchy.Events.StockLow)", 1),
            ("StockLow.#ctor(System.String)", 1)]
    finally:
        server.close()


def test_a_handler_of_a_generic_event_is_reached_only_where_that_generic_event_is_published(
        hierarchy: Indexed) -> None:
    """GenericEvents.cs (Radarr's ProviderUpdatedEvent<TProvider>): `IHandle<Updated<IIndexerPlugin>>` is compared by
    the event's generic definition, so Factory<T>.Update (publishing Updated<TProvider>) and Settings.Touch
    (Updated<Newznab>) call it, Factory<T>.Delete (Deleted<TProvider>) and Settings.Save (Saved) do not (Radarr: all 81
    publishers of any event were callers); a handler generic over the event's argument, Cache<T> :
    IHandle<Updated<T>>, likewise. Callees, the trace and impact_analyze follow the same rule."""
    server = McpServerProcess(hierarchy.repo, {"ROSLYNMAP_HOME": str(hierarchy.home), "ROSLYNMAP_CACHE_DIR": "",
                                               "ROSLYNMAP_IDS": "full"})
    p = "Hierarchy.GenericEvents."

    def walk(tool: str, symbol_id: str) -> list[tuple[str, int]]:
        args = {"entry_point" if tool == "graph_trace_feature" else "symbol_id": symbol_id, "depth": 3}
        env = server.call(tool, args)
        assert env["ok"], env
        return sorted(((n["symbol_id"].removeprefix("M:" + p), n["depth"]) for n in env["data"]["nodes"]),
                      key=lambda nd: (nd[1], nd[0]))

    publish = "Bus.Publish``1(``0)"
    indexer_cache = f"M:{p}IndexerCache.Handle({p}Updated{{{p}IIndexerPlugin}})"
    try:
        updated_callers = [(publish, 1), ("Factory`1.Update", 2), ("Settings.Touch", 2)]
        assert walk("graph_callers", indexer_cache) == updated_callers
        assert walk("graph_callers", f"M:{p}Cache`1.Handle({p}Updated{{`0}})") == updated_callers
        assert walk("graph_callers", f"M:{p}Cleaner.Handle({p}Deleted{{{p}IIndexerPlugin}})") == [
            (publish, 1), ("Factory`1.Delete", 2)]
        assert walk("graph_callers", f"M:{p}Auditor.Handle({p}Saved)") == [(publish, 1), ("Settings.Save", 2)]
        updated_handlers = [("Bus.Publish``1(``0)", 1), ("IBus.Publish``1(``0)", 1),
                            ("Cache`1.Handle(Hierarchy.GenericEvents.Updated{`0})", 2), ("IHandle`1.Handle(`0)", 2),
                            ("IndexerCache.Handle(Hierarchy.GenericEvents.Updated{Hierarchy.GenericEvents."
                             "IIndexerPlugin})", 2)]
        assert walk("graph_callees", f"M:{p}Factory`1.Update") == updated_handlers
        assert walk("graph_trace_feature", f"M:{p}Factory`1.Update") == updated_handlers
        assert walk("graph_callees", f"M:{p}Factory`1.Delete") == [
            ("Bus.Publish``1(``0)", 1), ("IBus.Publish``1(``0)", 1),
            ("Cleaner.Handle(Hierarchy.GenericEvents.Deleted{Hierarchy.GenericEvents.IIndexerPlugin})", 2),
            ("IHandle`1.Handle(`0)", 2)]
        impact = server.call("impact_analyze", {"symbol_id": indexer_cache})
        assert [(c["symbol_id"].removeprefix("M:" + p), c["depth"]) for c in impact["data"]["callers"]] == \
            updated_callers
    finally:
        server.close()


def test_tables_of_fluent_migrator_migrations_and_table_valued_functions(hierarchy: Indexed) -> None:
    """Datastore/ (Radarr's): migrations under `Migration/` (singular) count as migrations; FluentMigrator's
    `Rename.Table(..).To(..)` and `Delete.Table(..)` in Up make former tables although no model snapshot exists, Down
    being no history; a table only migrations name and none renames or drops is listed, marked; SQLite's json_each
    and json_tree, called after FROM/JOIN, are no tables (a column list right after INTO is no call); an old-style
    join's comma-separated FROM list names each of its tables. FROMs that are no clause name no table: `IS [NOT]
    DISTINCT FROM subs.lockout_enabled` (BTCPay listed table lockout_enabled of schema subs), `EXTRACT(YEAR FROM
    added)`, `TRIM(BOTH ' ' FROM title)`; nor does `FOR UPDATE SKIP LOCKED` (table SKIP). PostgreSQL's `DELETE FROM
    "Grabs" g USING "Blocklist" b, "Pending"` and a MERGE's `USING "StagedCredits"` name tables (missed before);
    `JOIN "Credits" USING ("MovieId")` names a column. FluentMigrator's `Create.Table` is a creation (Radarr drops
    History and creates it again: it was listed as dropped) and `Execute.Sql` in Up names its tables (Down's do not)."""
    server = McpServerProcess(hierarchy.repo, {"ROSLYNMAP_HOME": str(hierarchy.home), "ROSLYNMAP_CACHE_DIR": "",
                                               "ROSLYNMAP_IDS": "full"})
    store, migrations = "src/Hierarchy/Datastore/MovieStore.cs", "src/Hierarchy/Datastore/Migration/"
    try:
        env = server.call("surfaces_list_db_tables", {})
        assert env["answer"] == ("19 database tables and 1 stored procedure (4 more that migrations renamed or dropped,"
                                 " under former_tables).")
        data = env["data"]
        assert [(t["table"], t["schema"], [(s["source"], s["file"], s["line"]) for s in t["sources"]],
                 t.get("migrations"), t.get("only_in_migrations"), t.get("renamed_from"))
                for t in data["tables"]] == [
            ("Blocklist", None, [("Sql", store, 19), ("Sql", store, 49)], 1, None, ["Blacklist"]),
            ("Config", None, [], 2, True, ["Config_new"]),
            ("Credits", None, [("Sql", store, 24), ("Sql", store, 52), ("Sql", store, 55)], None, None, None),
            ("Grabs", None, [("Sql", store, 42), ("Sql", store, 49)], None, None, None),
            ("History", None, [], 1, True, None),  # dropped, then created again (004_recreate_history.cs)
            # JobRepository's (test_sql_of_a_template_cache_and_of_a_command_helper).
            ("Job", None, [("Sql", store, 103)], None, None, None),
            ("JobParameter", None, [("Sql", store, 85)], None, None, None),
            ("JobQueue", "jobs", [("Sql", store, 93), ("Sql", store, 93)], None, None, None),
            ("Movies", None, [("Sql", store, 10), ("Sql", store, 17), ("Sql", store, 24), ("Sql", store, 55)], None,
             None, None),
            ("Pending", None, [("Sql", store, 49)], None, None, None),
            ("People", "main", [("Sql", store, 24)], None, None, None),
            ("QualityProfiles", None, [("Sql", store, 21)], None, None, ["Profiles"]),
            ("Queue", None, [("Sql", store, 45)], None, None, None),
            ("Server", "jobs", [("Sql", store, 104)], None, None, None),
            ("Set", None, [("Sql", store, 96)], None, None, None),
            ("StagedCredits", None, [("Sql", store, 52)], None, None, None),
            ("State", None, [("Sql", store, 108)], None, None, None),
            ("subscribers", None, [("Sql", store, 31)], None, None, None),
            ("Users", None, [("Sql", store, 31)], None, None, None)]
        assert data["former_tables"] == [
            {"table": "Blacklist", "schema": None, "entities": [], "file": f"{migrations}001_initial_setup.cs",
             "line": 12, "migrations": 2, "renamed_to": "Blocklist",
             "by": {"file": f"{migrations}002_rename_tables.cs", "line": 10}},
            # 003_rebuild_config.cs renames Config_new to Config after dropping Config: Config is live (listed above).
            {"table": "Config_new", "schema": None, "entities": [], "file": f"{migrations}003_rebuild_config.cs",
             "line": 13, "migrations": 1, "renamed_to": "Config",
             "by": {"file": f"{migrations}003_rebuild_config.cs", "line": 13}},
            {"table": "NetImport", "schema": None, "entities": [], "file": f"{migrations}001_initial_setup.cs",
             "line": 13, "migrations": 2, "dropped": True,
             "by": {"file": f"{migrations}002_rename_tables.cs", "line": 12}},
            {"table": "Profiles", "schema": "main", "entities": [], "file": f"{migrations}001_initial_setup.cs",
             "line": 23, "migrations": 2, "renamed_to": "QualityProfiles",
             "by": {"file": f"{migrations}002_rename_tables.cs", "line": 11}}]
        assert data["migration_folders"] == [{"folder": "src/Hierarchy/Datastore/Migration", "files": 4}]
        blacklist = server.call("surfaces_list_db_tables", {"table_filter": "blacklist"})
        assert blacklist["answer"] == ("0 database tables match 'blacklist' (Blacklist was renamed to Blocklist by a "
                                       "migration: under former_tables).")
    finally:
        server.close()


def test_sql_of_a_template_cache_and_of_a_command_helper(hierarchy: Indexed) -> None:
    """MovieStore.cs's JobRepository (Hangfire's SqlServer storage, whose 79 SQL templates were unread: only Schema and
    sys.* tables were listed from its code). A lambda handed to the solution's `JobStorage.Sql(Func<string, string>)`,
    a cache returning the lambda's text, writes the SQL that reaches Dapper through a local (its initializer, or each
    value assigned to it), `string.Format`'s format or either branch of `?:`: medium, inferred;
    `[{schema}].JobParameter` is table JobParameter of a schema known at run time. A string parameter the solution's
    own `CommandHelper.Create` sets as CommandText makes each call's argument SQL, `through` the helper:
    `Create("sp_getapplock", CommandType.StoredProcedure)` runs a procedure. SQL Server's `UPDATE J .. FROM [s].Job J`
    updates Job (J is its alias), `@from` is a parameter (Hangfire listed tables `J` and `and`), and a bracketed
    `[Set]` is a table."""
    server = McpServerProcess(hierarchy.repo, {"ROSLYNMAP_HOME": str(hierarchy.home), "ROSLYNMAP_CACHE_DIR": "",
                                               "ROSLYNMAP_IDS": "full"})
    helper = ("M:Hierarchy.Datastore.CommandHelper.Create(System.Data.IDbConnection,System.String,"
              "System.Data.CommandType)")
    repository = "M:Hierarchy.Datastore.JobRepository."
    try:
        tables = server.call("surfaces_list_db_tables", {"offset": 5, "limit": 3})["data"]["tables"]
        assert [(t["table"], t["schema"], t["sources"], t["symbols"], t["confidence"]) for t in tables] == [
            ("Job", None, [{"source": "Sql", "file": "src/Hierarchy/Datastore/MovieStore.cs", "line": 103,
                            "through": helper}], [f"{repository}Lock"], "medium"),
            ("JobParameter", None, [{"source": "Sql", "file": "src/Hierarchy/Datastore/MovieStore.cs", "line": 85}],
             [f"{repository}DeleteParameters(System.Int64)"], "medium"),
            # `if (front) sql = storage.Sql(..)` (inferred) `else sql = "DELETE FROM [jobs].[JobQueue] .."` (Dapper's).
            ("JobQueue", "jobs", [{"source": "Sql", "file": "src/Hierarchy/Datastore/MovieStore.cs", "line": 93}] * 2,
             [f"{repository}Requeue(System.Int64,System.Boolean)"], "high")]
        procedures = server.call("surfaces_list_db_tables", {"table_filter": "sp_"})["data"]["procedures"]
        assert procedures == [{"procedure": "sp_getapplock", "schema": None, "symbols": [f"{repository}Lock"],
                               "calls": 1, "file": "src/Hierarchy/Datastore/MovieStore.cs", "line": 101,
                               "confidence": "medium"}]
        # string.Format's format; the `?:` of two lambdas (one fact: the same table); a constant through the helper.
        assert [(t["table"], t["schema"], [(s["line"], s.get("through")) for s in t["sources"]], t["confidence"])
                for name in ("Set", "State", "Server")
                for t in server.call("surfaces_list_db_tables", {"table_filter": name})["data"]["tables"]] == [
            ("Set", None, [(96, None)], "medium"), ("State", None, [(108, None)], "medium"),
            ("Server", "jobs", [(104, helper)], "medium")]
    finally:
        server.close()


def test_a_call_on_a_modules_own_interface_runs_only_that_modules_handlers(hierarchy: Indexed) -> None:
    """Modules.cs (modular-monolith-with-ddd): each module's decorator calls `decorated.Handle(c)` on its own
    ICommandHandler<T>, which binds to the shared IRequestHandler<T>.Handle; a ReceiverType fact records the
    module's interface, so only its implementers run it: Shipping's decorator is no caller of Billing's handler (12 of
    15 callers there were other modules' decorators). A call typed as the shared interface (Dispatch.Any) may run any
    (contravariant: not narrowed by its type argument either)."""
    server = McpServerProcess(hierarchy.repo, {"ROSLYNMAP_HOME": str(hierarchy.home), "ROSLYNMAP_CACHE_DIR": "",
                                               "ROSLYNMAP_IDS": "full"})
    p = "M:Hierarchy.Modules."

    def nodes(tool: str, symbol_id: str) -> list[str]:
        env = server.call(tool, {"symbol_id": symbol_id})
        assert env["ok"], env
        return sorted(n["symbol_id"].removeprefix(p) for n in env["data"]["nodes"])

    try:
        assert nodes("graph_callers", f"{p}Billing.ChargeHandler.Handle(Hierarchy.Modules.Billing.Charge)") == [
            "Billing.LoggingDecorator`1.Handle(`0)", "Shipping.Dispatch.Any(Hierarchy.Modules.IRequestHandler{"
            "Hierarchy.Modules.Shipping.Ship},Hierarchy.Modules.Shipping.Ship)"]
        assert nodes("graph_callees", f"{p}Shipping.LoggingDecorator`1.Handle(`0)") == [
            "IRequestHandler`1.Handle(`0)", "Shipping.ShipHandler.Handle(Hierarchy.Modules.Shipping.Ship)"]
        assert nodes("graph_callees", f"{p}Shipping.Dispatch.Any(Hierarchy.Modules.IRequestHandler{{"
                     "Hierarchy.Modules.Shipping.Ship},Hierarchy.Modules.Shipping.Ship)") == [
            "Billing.ChargeHandler.Handle(Hierarchy.Modules.Billing.Charge)", "Billing.LoggingDecorator`1.Handle(`0)",
            "IRequestHandler`1.Handle(`0)", "Shipping.LoggingDecorator`1.Handle(`0)",
            "Shipping.ShipHandler.Handle(Hierarchy.Modules.Shipping.Ship)"]
    finally:
        server.close()


def test_a_virtual_call_on_a_receiver_of_one_class_line_runs_only_that_lines_overrides(hierarchy: Indexed) -> None:
    """Policies.cs, Shelves: `shelf.Describe()` on a BookShelf (which does not override it) binds to Shelf.Describe,
    and can run RareBookShelf's override but never WineShelf's; on a Shelf it can run both (jellyfin's
    `video.GetDefaultPrimaryImageAspectRatio()` listed every BaseItem override)."""
    server = McpServerProcess(hierarchy.repo, {"ROSLYNMAP_HOME": str(hierarchy.home), "ROSLYNMAP_CACHE_DIR": "",
                                               "ROSLYNMAP_IDS": "full"})

    def callees(symbol_id: str) -> list[tuple[str, str]]:
        env = server.call("graph_callees", {"symbol_id": symbol_id})
        assert env["ok"], env
        return [(n["symbol_id"], e["kind"]) for n in env["data"]["nodes"] for e in n["edges"]]

    def traced(symbol_id: str) -> list[tuple[str, str]]:
        env = server.call("graph_trace_feature", {"entry_point": symbol_id, "depth": 1})
        assert env["ok"], env
        return [(n["symbol_id"], n["from"]["kind"]) for n in env["data"]["nodes"]]

    base, rare, wine = ("M:Hierarchy.Shelf.Describe", "M:Hierarchy.RareBookShelf.Describe",
                        "M:Hierarchy.WineShelf.Describe")
    try:
        books, any_shelf = "M:Hierarchy.Shelves.DescribeBooks(Hierarchy.BookShelf)", \
            "M:Hierarchy.Shelves.DescribeAny(Hierarchy.Shelf)"
        assert callees(books) == [(base, "Call"), (rare, "Dispatch")]
        cellar = "M:Hierarchy.WineCellar.Describe"
        assert callees(any_shelf) == [(base, "Call"), (rare, "Dispatch"), (cellar, "Dispatch"), (wine, "Dispatch")]
        assert traced(books) == [(base, "Call"), (rare, "Dispatch")]
        assert traced(any_shelf) == [(base, "Call"), (rare, "Dispatch"), (cellar, "Dispatch"), (wine, "Dispatch")]
        # `Describe()` on this (a Cellar's line: WineCellar's override) beside `shelf.Describe()` (BookShelf's line).
        assert callees("M:Hierarchy.Cellar.Both(Hierarchy.BookShelf)") == [
            (base, "Call"), (rare, "Dispatch"), (cellar, "Dispatch")]
    finally:
        server.close()


def test_an_interface_member_implemented_by_an_inherited_method_reaches_it(hierarchy: Indexed) -> None:
    """Engines.cs (Ombi's BaseMediaEngine.SubscribeToRequest: 0 callers, "unused"): MovieEngine implements IEngine
    with the Subscribe it inherits from EngineBase, which does not implement IEngine itself."""
    server = McpServerProcess(hierarchy.repo, {"ROSLYNMAP_HOME": str(hierarchy.home), "ROSLYNMAP_CACHE_DIR": "",
                                               "ROSLYNMAP_IDS": "full"})
    try:
        callers = server.call("graph_callers", {"symbol_id": "M:Hierarchy.EngineBase.Subscribe(System.Int32)"})
        assert [(n["symbol_id"], [e.get("via") for e in n["edges"]]) for n in callers["data"]["nodes"]] == [
            ("M:Hierarchy.EngineUse.Run(Hierarchy.IEngine)", ["M:Hierarchy.IEngine.Subscribe(System.Int32)"])]
        unused = server.call("symbols_unused", {"project": "Hierarchy"})
        assert not [u for u in unused["data"]["unused"] if "Engine" in u["symbol_id"]]
        impls = server.call("graph_callees", {"symbol_id": "M:Hierarchy.EngineUse.Run(Hierarchy.IEngine)"})
        assert [(n["symbol_id"], n["edges"][0]["kind"]) for n in impls["data"]["nodes"]] == [
            ("M:Hierarchy.IEngine.Subscribe(System.Int32)", "Call"),
            ("M:Hierarchy.EngineBase.Subscribe(System.Int32)", "Dispatch")]
    finally:
        server.close()


def test_a_member_run_on_this_for_an_override_keeps_only_receivers_that_may_be_its_class(hierarchy: Indexed) -> None:
    """testdata/Hierarchy/src/Hierarchy/Policies.cs, a template method: Rule.Run calls the abstract Apply on this, so
    a call of Run on a receiver typed DeadlineRule cannot run CachingRule.Apply (Polly's `timeout.Execute(...)` was
    a test of CachePolicy.Implementation). A receiver typed as the base stays (it may be any rule); through `this`
    the object stays the same (RunLate is a DeadlineRule's, RunTwice a CachingRule's)."""
    db = hierarchy.home / "repos" / hierarchy.info.repo_id / "baselines" / f"{hierarchy.info.commit}.db"
    facts = sqlite3.connect(db).execute("SELECT symbol_id, line, key FROM facts WHERE kind = 'ReceiverType'"
                                        " AND symbol_id NOT LIKE 'M:Hierarchy.Modules.%'"  # Modules.cs: interfaces
                                        " AND symbol_id NOT LIKE 'M:Hierarchy.Resources.%'"  # Resources.cs: its own
                                        " ORDER BY line").fetchall()
    # Only where the receiver's static type is not the class declaring the member: not on `rule` (Rule<int>), not
    # on the cast to Rule<int>, not on RunLate's own DeadlineRule.
    assert facts == [("M:Hierarchy.RuleTests.CachingRuns", 63, "T:Hierarchy.CachingRule`1"),
                     ("M:Hierarchy.RuleTests.SlidingCachingRuns", 70, "T:Hierarchy.SlidingCachingRule`1"),
                     ("M:Hierarchy.RuleTests.DeadlineRuns", 74, "T:Hierarchy.DeadlineRule`1"),
                     ("M:Hierarchy.RuleTests.CachingRunsTwice", 80, "T:Hierarchy.SlidingCachingRule`1"),
                     ("M:Hierarchy.RuleTests.DeadlineSummary", 86, "T:Hierarchy.DeadlineRule`1"),
                     ("M:Hierarchy.Shelves.DescribeBooks(Hierarchy.BookShelf)", 116, "T:Hierarchy.BookShelf"),
                     ("M:Hierarchy.Cellar.Both(Hierarchy.BookShelf)", 125, "T:Hierarchy.BookShelf")]
    server = McpServerProcess(hierarchy.repo, {"ROSLYNMAP_HOME": str(hierarchy.home), "ROSLYNMAP_CACHE_DIR": "",
                                               "ROSLYNMAP_IDS": "full"})
    p = "Hierarchy."
    caching, deadline = f"M:{p}CachingRule`1.Apply(System.Func{{`0}},System.String)", \
        f"M:{p}DeadlineRule`1.Apply(System.Func{{`0}},System.String)"
    run, run_with = "Rule`1.Run(System.Func{`0})", "Rule`1.Run(System.Func{`0},System.String)"

    def tests(symbol_id: str) -> list[tuple[str, int]]:
        env = server.call("tests_find", {"symbol_id": symbol_id})
        assert env["ok"], env
        return [(t["test"].removeprefix(f"M:{p}RuleTests."), t["depth"]) for t in env["data"]["tests"]]

    def callers(symbol_id: str) -> list[tuple[str, int, str]]:
        env = server.call("graph_callers", {"symbol_id": symbol_id, "depth": 4})
        assert env["ok"], env
        return sorted((n["symbol_id"][2:].removeprefix(p), n["depth"], e.get("to", symbol_id)[2:].removeprefix(p))
                      for n in env["data"]["nodes"] for e in n["edges"])  # no `to`: the root

    try:
        assert tests(caching) == [("SlidingCachingRuns", 2), ("CachingRuns", 3), ("AnyRuleRuns", 4),
                                  ("CachingRunsTwice", 4)]
        assert tests(deadline) == [("DeadlineRuns", 3), ("DeadlineRunsLate", 3), ("AnyRuleRuns", 4)]
        # A property read on `this.Kind`: the base-typed receiver (a cast) reaches both, DeadlineRule's only its own.
        assert tests(f"P:{p}CachingRule`1.Kind") == [("CachingSummary", 2)]
        assert tests(f"P:{p}DeadlineRule`1.Kind") == [("CachingSummary", 2), ("DeadlineSummary", 2)]
        assert callers(caching) == sorted([
            ("CachingRule`1.RunTwice(System.Func{`0})", 3, run), (run, 2, run_with),
            (run_with, 1, "CachingRule`1.Apply(System.Func{`0},System.String)"),
            ("RuleTests.AnyRuleRuns", 4, "Rules.RunAny(Hierarchy.Rule{System.Int32})"),
            ("RuleTests.CachingRuns", 3, run),
            ("RuleTests.CachingRunsTwice", 4, "CachingRule`1.RunTwice(System.Func{`0})"),
            ("RuleTests.SlidingCachingRuns", 2, run_with), ("Rules.RunAny(Hierarchy.Rule{System.Int32})", 3, run)])
        assert callers(deadline) == sorted([
            ("DeadlineRule`1.RunLate(System.Func{`0})", 2, run_with), (run, 2, run_with),
            (run_with, 1, "DeadlineRule`1.Apply(System.Func{`0},System.String)"),
            ("RuleTests.AnyRuleRuns", 4, "Rules.RunAny(Hierarchy.Rule{System.Int32})"),
            ("RuleTests.DeadlineRuns", 3, run),
            ("RuleTests.DeadlineRunsLate", 3, "DeadlineRule`1.RunLate(System.Func{`0})"),
            ("Rules.RunAny(Hierarchy.Rule{System.Int32})", 3, run)])
        # The abstract member itself: every caller of either override, none narrowed.
        assert {c[0] for c in callers(f"M:{p}Rule`1.Apply(System.Func{{`0}},System.String)")} == {
            c[0] for c in callers(caching) + callers(deadline)}
        impact = server.call("impact_analyze", {"symbol_id": caching})
        assert impact["ok"], impact
        assert impact["answer"].startswith(f"Changing {p}CachingRule<T>.Apply touches 8 callers (4 of them tests)")
        # ReceiverType and GenericCall facts are the graph's: a card leaves them out.
        card = server.call("symbols_get_card", {"symbol_id": f"M:{p}RuleTests.DeadlineRuns"})
        assert [f["kind"] for f in card["data"]["facts"]] == ["Test"]
    finally:
        server.close()


def test_a_base_member_entered_on_this_runs_the_override_its_object_sees(hierarchy: Indexed) -> None:
    """Resources.cs (Radarr's RestController<TResource>: `Created(id)` and `GetResourceByIdWithErrorHandler(id)` call
    the abstract GetResourceById on this; entered from MovieController, graph_callees and the trace listed all 33
    controllers' overrides). Entered on this (a plain name, `this.`, `base.`) from a MovieController member, the base's
    helpers run on a MovieController, two levels down: MovieController's override, or PinnedController's (it derives
    from MovieController), never a sibling's; ArchiveController, overriding nothing, runs MovieController's;
    PinnedController's own hides MovieController's. Entered on another receiver typed as a controller (a ReceiverType
    fact: `other.GetWithErrorHandler(id)`, `other` a TagController), they run on that controller, at any depth of this
    calls below; entered at the base member, or on a receiver typed as the base, every one."""
    server = McpServerProcess(hierarchy.repo, {"ROSLYNMAP_HOME": str(hierarchy.home), "ROSLYNMAP_CACHE_DIR": "",
                                               "ROSLYNMAP_IDS": "full"})
    p = "M:Hierarchy.Resources."
    get_by_id = "RestController`1.GetById(System.Int32)"

    def walk(tool: str, member: str, depth: int = 3) -> list[tuple[int, str, str]]:
        args = {"entry_point" if tool == "graph_trace_feature" else "symbol_id": p + member, "depth": depth}
        env = server.call(tool, args)
        assert env["ok"], env
        return [(n["depth"], n["symbol_id"].removeprefix(p),
                 (n["from"] if tool == "graph_trace_feature" else n["edges"][0])["kind"]) for n in env["data"]["nodes"]]

    helpers = [(1, "RestController`1.Created(System.Int32)", "Call"),
               (2, "RestController`1.Load(System.Int32)", "Call"), (3, get_by_id, "Call")]
    every = [(2, "MovieController.GetById(System.Int32)", "Dispatch"),
             (2, "QueueController.GetById(System.Int32)", "Dispatch"),
             (2, "TagController.GetById(System.Int32)", "Dispatch"),
             (2, "PinnedController.GetById(System.Int32)", "Dispatch")]
    handler = (1, "RestController`1.GetWithErrorHandler(System.Int32)", "Call")
    rest_int = "Hierarchy.Resources.RestController{System.Int32}"
    try:
        for tool in ("graph_callees", "graph_trace_feature"):
            assert walk(tool, "MovieController.Add(System.Int32)") == [
                *helpers, (3, "MovieController.GetById(System.Int32)", "Dispatch"),
                (3, "PinnedController.GetById(System.Int32)", "Dispatch")]
            assert walk(tool, "MovieController.Again(System.Int32)") == walk(tool, "MovieController.Add(System.Int32)")
            assert walk(tool, "ArchiveController.Restore(System.Int32)") == [
                *helpers, (3, "MovieController.GetById(System.Int32)", "Dispatch")]
            assert walk(tool, "PinnedController.Pin(System.Int32)") == [
                *helpers, (3, "PinnedController.GetById(System.Int32)", "Dispatch")]
            # The base member itself: no class known, every override.
            assert walk(tool, "RestController`1.Created(System.Int32)", 2) == [
                (1, "RestController`1.Load(System.Int32)", "Call"), (2, get_by_id, "Call"), *every]
            # On another receiver the caller's class says nothing; the receiver's static class (a ReceiverType fact)
            # is the object: a TagController parameter runs TagController's override.
            assert walk(tool, "MovieController.Peek(Hierarchy.Resources.TagController,System.Int32)", 2) == [
                handler, (2, get_by_id, "Call"), (2, "TagController.GetById(System.Int32)", "Dispatch")]
            # Typed as the base class itself (no fact: it may be any controller): every override.
            assert walk(tool, f"ResourceClient.Any({rest_int},System.Int32)", 2) == [
                handler, (2, get_by_id, "Call"), *every]
            # Typed as a class overriding nothing: its nearest base's override, not a sibling's (PinnedController's).
            assert walk(tool, "ResourceClient.Archived(Hierarchy.Resources.ArchiveController,System.Int32)", 2) == [
                handler, (2, get_by_id, "Call"), (2, "MovieController.GetById(System.Int32)", "Dispatch")]
            # Carried two levels of this calls down: Reload -> Load -> GetById.
            assert walk(tool, "ResourceClient.Reloaded(Hierarchy.Resources.ArchiveController,System.Int32)") == [
                (1, "RestController`1.Reload(System.Int32)", "Call"),
                (2, "RestController`1.Load(System.Int32)", "Call"), (3, get_by_id, "Call"),
                (3, "MovieController.GetById(System.Int32)", "Dispatch")]
            # Two typed receivers: either's override; beside one typed as the base, every override.
            assert walk(tool, "ResourceClient.Both(Hierarchy.Resources.TagController,Hierarchy.Resources."
                              "QueueController,System.Int32)", 2) == [
                handler, (2, get_by_id, "Call"), (2, "QueueController.GetById(System.Int32)", "Dispatch"),
                (2, "TagController.GetById(System.Int32)", "Dispatch")]
            assert walk(tool, f"ResourceClient.Mixed(Hierarchy.Resources.TagController,{rest_int},System.Int32)",
                        2) == [handler, (2, get_by_id, "Call"), *every]
    finally:
        server.close()


def test_a_bus_of_the_solution_calling_its_handlers_is_no_no_handler_stop(hierarchy: Indexed) -> None:
    """GenericEvents.cs: `bus.Publish(new Updated<TProvider>())` on the solution's IBus (MassTransit's name, so the
    bridge reads it as a bus send) reaches its handlers through Bus.Publish's `IHandle<TEvent>.Handle`, yet the trace
    ended "Stopped: 1 no_handler". Broker.cs (eShop's RabbitMQ EventBus): a bus of the solution whose implementation
    hands the event to a broker, or to a generic outbox method, calls no handler: still `no_handler`."""
    server = McpServerProcess(hierarchy.repo, {"ROSLYNMAP_HOME": str(hierarchy.home), "ROSLYNMAP_CACHE_DIR": "",
                                               "ROSLYNMAP_IDS": "full"})

    def stops(symbol_id: str) -> Any:
        env = server.call("graph_trace_feature", {"entry_point": symbol_id, "depth": 3})
        assert env["ok"], env
        return env["data"]["stops"]

    cast = {"target": "M:System.Linq.Enumerable.Cast``1(System.Collections.IEnumerable)", "calls": 1}
    try:
        # Through Bus.Publish into IHandle<TEvent>.Handle: the trace goes on, and says only where it really ended.
        assert stops("M:Hierarchy.GenericEvents.Factory`1.Update") == {
            "by_reason": {"external": 1}, "places": [], "external": [cast], "noise_dropped": 1}
        assert stops("M:Hierarchy.GenericEvents.Settings.Save") == {
            "by_reason": {"external": 1}, "places": [], "external": [cast], "noise_dropped": 1}
        # A broker's bus: the event stops where it is published.
        assert stops("M:Hierarchy.Broker.Pricing.Change(System.Int32)") == {
            "by_reason": {"no_handler": 1, "external": 3},
            "places": [{"reason": "no_handler", "at": "M:Hierarchy.Broker.Pricing.Change(System.Int32)",
                        "request": "T:Hierarchy.Broker.PriceChanged", "file": "src/Hierarchy/Broker.cs", "line": 41}],
            "external": [{"target": "M:System.Collections.Generic.Queue`1.Enqueue(`0)", "calls": 1},
                         {"target": "M:System.Object.GetType", "calls": 1},
                         {"target": "P:System.Reflection.MemberInfo.Name", "calls": 1}]}
        # Generic, handing the event to a generic method of an interface (not an interface built on its type): the same.
        assert stops("M:Hierarchy.Broker.Pricing.ChangeLater(System.Int32)") == {
            "by_reason": {"no_handler": 1, "external": 1},
            "places": [{"reason": "no_handler", "at": "M:Hierarchy.Broker.Pricing.ChangeLater(System.Int32)",
                        "request": "T:Hierarchy.Broker.PriceChanged", "file": "src/Hierarchy/Broker.cs", "line": 43}],
            "external": [{"target": "M:System.Collections.Generic.List`1.Add(`0)", "calls": 1}]}
    finally:
        server.close()
