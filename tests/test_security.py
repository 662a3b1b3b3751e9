"""DESIGN §11, issue 17: one test per escape. Repository confinement, version-control internals, symlinks
out of the repository, bad numbers / NUL / long paths as INVALID_ARGUMENT (never a protocol error or
INTERNAL), calls off the event loop, bounded caches and walks, no lock files for unknown workspaces."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.conftest import indexed_copy, roslynmap
from tests.mcp_client import McpServerProcess

PROGRAM = "src/Shop.App/Program.cs"
ORDER_ID = "T:Shop.Domain.Order"
ORDER_FILE = "src/Shop.Domain/Order.cs"


def error(env: dict[str, Any]) -> dict[str, Any]:
    assert env["ok"] is False, env
    err: dict[str, Any] = env["error"]
    return err


# ---------------------------------------------------------------- a raw JSON-RPC client

class RawServer:
    """`roslynmap serve` spoken to line by line: the MCP client cannot send 1e999 or 2**64 as JSON numbers,
    a hostile client can. Any JSON-RPC error is a failure of the test."""

    def __init__(self, repo: Path, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "roslynmap.cli", "serve", "--repo", str(repo)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     env={**os.environ, **env})
        self.pool = ThreadPoolExecutor(1)
        self.next_id = 0
        init = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}
        assert "result" in self.request("initialize", json.dumps(init))
        self._send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')

    def _send(self, line: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + b"\n")
        self.proc.stdin.flush()

    def request(self, method: str, params_json: str) -> dict[str, Any]:
        self.next_id += 1
        self._send(f'{{"jsonrpc":"2.0","id":{self.next_id},"method":"{method}","params":{params_json}}}'.encode())
        assert self.proc.stdout is not None
        while True:
            line = self.pool.submit(self.proc.stdout.readline).result(timeout=60)
            message: dict[str, Any] = json.loads(line)
            if message.get("id") == self.next_id:
                return message

    def call(self, tool: str, arguments_json: str) -> dict[str, Any]:
        reply = self.request("tools/call", f'{{"name":"{tool}","arguments":{arguments_json}}}')
        assert "error" not in reply, f"JSON-RPC error for {tool} {arguments_json[:120]}: {reply['error']}"
        env: dict[str, Any] = reply["result"]["structuredContent"]
        return env

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)
        self.pool.shutdown()


@pytest.fixture(scope="module")
def raw(shop: Path, home: Path) -> Iterator[RawServer]:
    server = RawServer(shop, {"ROSLYNMAP_HOME": str(home)})
    yield server
    server.close()


# ---------------------------------------------------------------- confinement

def test_repo_path_outside_the_allowed_repositories_is_refused(server: McpServerProcess, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "secret.txt").write_text("token=abc\n")
    cases = [("code_get_span", {"repo_path": "/etc", "file_path": "passwd"}),
             ("code_get_span", {"repo_path": "/proc/self", "file_path": "environ"}),
             ("code_get_span", {"repo_path": str(other), "file_path": "secret.txt"}),
             ("repo_status", {"repo_path": "/"}),
             ("symbols_search", {"repo_path": str(other), "query": "x"}),
             ("workspace_create", {"repo_path": str(other), "workspace_id": "w"}),
             ("index_ensure_baseline", {"repo_path": str(other)})]
    for tool, args in cases:
        err = error(server.call(tool, args))
        assert err["code"] == "PATH_OUTSIDE_REPO", (tool, err)
        assert "is not a repository this server may read" in err["message"]
        assert "--allow-root" in err["hint"] and "ROSLYNMAP_ALLOWED_ROOTS" in err["hint"]
    assert [p.name for p in other.iterdir()] == ["secret.txt"]  # nothing written into the refused folder


def test_allowed_roots_extend_confinement(shop: Path, home: Path, tmp_path: Path) -> None:
    """--allow-root and ROSLYNMAP_ALLOWED_ROOTS allow any repository under them; --repo is repeatable."""
    allowed, env_root, denied = tmp_path / "allowed", tmp_path / "envroot", tmp_path / "denied"
    for folder in (allowed / "a", env_root / "b", denied / "c"):
        folder.mkdir(parents=True)
        subprocess.run(["git", "init", "-q"], cwd=folder, check=True)
    server = McpServerProcess(shop, {"ROSLYNMAP_HOME": str(home), "ROSLYNMAP_ALLOWED_ROOTS": str(env_root)},
                              ["--allow-root", str(allowed), "--repo", str(denied / "c")])
    try:
        assert server.call("repo_status", {"repo_path": str(allowed / "a")})["data"]["root"] == str(allowed / "a")
        assert server.call("repo_status", {"repo_path": str(env_root / "b")})["data"]["root"] == str(env_root / "b")
        assert server.call("repo_status", {"repo_path": str(denied / "c")})["ok"] is True  # a second --repo
        assert server.call("repo_status", {})["data"]["root"] == str(shop)  # the first --repo is the default
        (denied / "d").mkdir()
        assert error(server.call("repo_status", {"repo_path": str(denied / "d")}))["code"] == "PATH_OUTSIDE_REPO"
        # a symlink inside an allowed root pointing outside it is judged by its real path
        (allowed / "link").symlink_to(denied / "d")
        assert error(server.call("repo_status", {"repo_path": str(allowed / "link")}))["code"] == "PATH_OUTSIDE_REPO"
    finally:
        server.close()


def test_allow_root_inside_a_bigger_repository_does_not_open_the_rest(shop: Path, home: Path) -> None:
    """An allowed folder inside a git work tree: its repository root (above the folder) is refused."""
    server = McpServerProcess(None, {"ROSLYNMAP_HOME": str(home)}, ["--allow-root", str(shop / "src")],
                              cwd=Path("/"))
    try:
        err = error(server.call("code_get_span", {"repo_path": str(shop / "src"), "file_path": "Shop.App/Program.cs"}))
        assert err["code"] == "PATH_OUTSIDE_REPO" and f"'{shop}'" in err["message"]
    finally:
        server.close()


def test_without_repo_the_working_directory_repository_is_allowed(shop: Path, home: Path, tmp_path: Path) -> None:
    server = McpServerProcess(None, {"ROSLYNMAP_HOME": str(home)}, cwd=shop / "src")
    try:
        assert server.call("repo_status", {"repo_path": str(shop)})["data"]["root"] == str(shop)
        err = error(server.call("repo_status", {"repo_path": str(tmp_path)}))
        assert err["code"] == "PATH_OUTSIDE_REPO" and str(shop) in err["message"]
        # It is also the default: an MCP client starts the server in the project folder (issue 15).
        assert server.call("repo_status", {})["data"]["root"] == str(shop)
    finally:
        server.close()
    nowhere = McpServerProcess(None, {"ROSLYNMAP_HOME": str(home)}, cwd=tmp_path)  # not in a git repository
    try:
        err = error(nowhere.call("repo_status", {"repo_path": str(shop)}))
        assert err["code"] == "PATH_OUTSIDE_REPO" and "(allowed: none)" in err["message"]
        missing = error(nowhere.call("repo_status", {}))  # no default repository: say how to name one
        assert missing["code"] == "INVALID_ARGUMENT" and "repo_path" in missing["hint"]
    finally:
        nowhere.close()


def test_cli_call_allows_the_repository_on_its_command_line(shop: Path, home: Path) -> None:
    env = {"ROSLYNMAP_HOME": str(home)}
    by_flag = roslynmap("call", "repo_status", "{}", "--repo", str(shop), env=env)
    assert by_flag.returncode == 0 and json.loads(by_flag.stdout)["data"]["root"] == str(shop)
    by_arg = roslynmap("call", "code_get_span", json.dumps({"repo_path": str(shop), "file_path": PROGRAM,
                                                            "max_lines": 1}), env=env)
    assert by_arg.returncode == 0 and json.loads(by_arg.stdout)["data"]["file"] == PROGRAM


# ---------------------------------------------------------------- version-control internals

def test_version_control_internals_are_never_read(server: McpServerProcess, shop: Path) -> None:
    (shop / "src" / "Shop.App" / "config.link").symlink_to(shop / ".git" / "config")
    try:
        for path in (".git/config", ".git/HEAD", "./.git/config", "src/../.git/config", f"{shop}/.git/config",
                     ".GIT/config", "src/Shop.App/config.link"):
            err = error(server.call("code_get_span", {"file_path": path}))
            assert err["code"] == "PATH_OUTSIDE_REPO", (path, err)
            assert "version-control internals" in err["message"], path
        resolved = error(server.call("symbols_resolve", {"file_path": ".git/config", "line": 1}))
        assert resolved["code"] == "PATH_OUTSIDE_REPO"
        # as a filter, .git/ is harmless: nothing there is indexed
        assert server.call("symbols_search", {"query": "Order", "file_path": ".git/"})["data"]["filters"] == \
            {"file_path": ".git/"}
    finally:
        (shop / "src" / "Shop.App" / "config.link").unlink()


# ---------------------------------------------------------------- symlinks out of the repository

@pytest.fixture(scope="module")
def linked(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Iterator[tuple[Path, Path, McpServerProcess]]:
    """An indexed Shop copy whose Order.cs is then replaced by a symlink to a file outside the repository."""
    base = tmp_path_factory.mktemp("linked")
    repo = indexed_copy("Shop", base / "Shop", home)
    outside = base / "outside"
    outside.mkdir()
    secret = outside / "Order.cs"
    secret.write_text((repo / ORDER_FILE).read_text().replace("namespace", "// SECRET outside the repo\nnamespace"))
    server = McpServerProcess(repo, {"ROSLYNMAP_HOME": str(home)})
    yield repo, outside, server
    server.close()


def test_symlink_out_of_the_repo_is_refused_by_every_reader(linked: tuple[Path, Path, McpServerProcess]) -> None:
    repo, outside, server = linked
    original = (repo / ORDER_FILE).read_text()
    (repo / ORDER_FILE).unlink()
    (repo / ORDER_FILE).symlink_to(outside / "Order.cs")
    try:
        span = error(server.call("symbols_get_definition_span", {"symbol_id": ORDER_ID}))
        assert span["code"] == "PATH_OUTSIDE_REPO" and ORDER_FILE in span["message"]
        assert error(server.call("code_get_span", {"file_path": ORDER_FILE}))["code"] == "PATH_OUTSIDE_REPO"
        assert error(server.call("symbols_resolve", {"symbol_id": ORDER_ID}))["code"] == "PATH_OUTSIDE_REPO"
        refs = server.call("refs_find", {"symbol_id": ORDER_ID, "file_path": "src/Shop.Domain/"})
        assert refs["ok"] is True
        (inside,) = [r for r in refs["data"]["references"] if r["file"] == ORDER_FILE]
        assert (inside["line"], inside["from_symbol_id"], inside.get("excerpt")) == (13, "M:Shop.Domain.Order.MarkPaid",
                                                                                       None)
        assert "SECRET" not in json.dumps(refs)
    finally:
        (repo / ORDER_FILE).unlink()
        (repo / ORDER_FILE).write_text(original)
    assert server.call("symbols_get_definition_span", {"symbol_id": ORDER_ID})["ok"] is True


def test_overlay_refresh_skips_a_symlink_out_of_the_repo(linked: tuple[Path, Path, McpServerProcess]) -> None:
    repo, outside, server = linked
    (outside / "Leak.cs").write_text("namespace Shop.App;\npublic class LeakedSecret { public int Token => 42; }\n")
    link = repo / "src" / "Shop.App" / "Leak.cs"
    link.symlink_to(outside / "Leak.cs")
    try:
        assert server.call("workspace_create", {"workspace_id": "links"})["ok"] is True
        refreshed = server.call("index_refresh_overlay", {"workspace_id": "links"})
        assert refreshed["ok"] is True, refreshed
        assert [w for w in refreshed.get("warnings", []) if "outside the repository" in w] == [
            "Skipped 1 file(s) whose real path is outside the repository (a symlink) or not a regular file; "
            "roslynmap never reads them: src/Shop.App/Leak.cs."]
        assert refreshed["data"]["changed_files"] == []
        found = server.call("symbols_search", {"query": "LeakedSecret", "workspace_id": "links"})
        assert found["data"]["results"] == [] and found["answer"].startswith("No symbols match")
    finally:
        link.unlink()
        server.call("workspace_delete", {"workspace_id": "links"})


# ---------------------------------------------------------------- bad input

BAD_INPUTS = [
    ("symbols_search", '{"query":"Order","token_budget":1e999}', "token_budget: inf is not a finite number."),
    ("symbols_search", '{"query":"Order","token_budget":18446744073709551616}',
     "token_budget: 18446744073709551616 is out of range (|value| ≤ 2147483647)."),
    ("symbols_search", '{"query":"Order","limit":18446744073709551616}',
     "limit: 18446744073709551616 is out of range (|value| ≤ 2147483647)."),
    ("symbols_search", '{"query":"Order","offset":1e20}', "offset: 1e+20 is out of range (|value| ≤ 2147483647)."),
    ("symbols_search", '{"query":"Order","offset":"99999999999999999999999"}',
     "offset: 1.000e+23 is out of range (|value| ≤ 2147483647)."),
    ("refs_find", '{"symbol_id":"T:Shop.Domain.Order","offset":-1e999}', "offset: -inf is not a finite number."),
    ("graph_callers", '{"symbol_id":"T:Shop.Domain.Order","depth":1e300}',
     "depth: 1e+300 is out of range (|value| ≤ 2147483647)."),
    ("surfaces_list_endpoints", '{"limit":-18446744073709551616}',
     "limit: -18446744073709551616 is out of range (|value| ≤ 2147483647)."),
    ("code_get_span", '{"file_path":"src/a\\u0000b.cs"}', "file_path: contains a NUL character (\\u0000)."),
    ("symbols_search", '{"query":"Order","file_path":"\\u0000"}', "file_path: contains a NUL character (\\u0000)."),
    ("refs_find", '{"symbol_id":"T:Shop.Domain.Order","file_path":"a\\u0000"}',
     "file_path: contains a NUL character (\\u0000)."),
    ("symbols_resolve", '{"file_path":"a\\u0000","line":1}', "file_path: contains a NUL character (\\u0000)."),
    ("index_refresh_overlay", '{"workspace_id":"w","file_paths":["a\\u0000.cs"]}',
     "file_paths[0]: contains a NUL character (\\u0000)."),
    ("repo_status", '{"repo_path":"/tmp/\\u0000"}', "repo_path: contains a NUL character (\\u0000)."),
    ("code_get_span", json.dumps({"file_path": "a" * 10_000}), "file_path: 10000 characters is over the "
                                                                  "4096-character limit."),
    ("symbols_search", json.dumps({"query": "x" * 5000}), "query: 5000 characters is over the 4096-character limit."),
]


@pytest.mark.parametrize(("tool", "arguments", "message"), BAD_INPUTS, ids=[f"{t}-{i}" for i, (t, _, _) in
                                                                            enumerate(BAD_INPUTS)])
def test_bad_input_is_invalid_argument_never_a_protocol_error(raw: RawServer, tool: str, arguments: str,
                                                              message: str) -> None:
    err = error(raw.call(tool, arguments))
    assert (err["code"], err["message"]) == ("INVALID_ARGUMENT", message)
    assert err["hint"]


def test_long_path_components_and_loops_are_invalid_argument(raw: RawServer, shop: Path) -> None:
    """Under the length limit the OS may still refuse a path (a 300-character name, a symlink loop)."""
    err = error(raw.call("code_get_span", json.dumps({"file_path": "a" * 300 + ".cs"})))
    assert err["code"] == "INVALID_ARGUMENT" and "File name too long" in err["message"]
    loop = shop / "loop.cs"
    loop.symlink_to(loop)
    try:
        err = error(raw.call("code_get_span", '{"file_path":"loop.cs"}'))
        assert err["code"] == "INVALID_ARGUMENT", err
    finally:
        loop.unlink()


def test_a_fifo_in_the_repo_is_not_read(server: McpServerProcess, shop: Path) -> None:
    fifo = shop / "pipe.cs"
    os.mkfifo(fifo)
    try:
        err = error(server.call("code_get_span", {"file_path": "pipe.cs"}))
        assert err["code"] in {"NOT_FOUND", "INVALID_ARGUMENT"}  # never blocks on the read
    finally:
        fifo.unlink()


# ---------------------------------------------------------------- event loop, bounded work

def test_calls_run_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """A call stuck in blocking work (a walk, a slow disk) does not delay another client's call."""
    from roslynmap.mcp import dispatch
    from roslynmap.mcp.confine import Confinement
    from roslynmap.mcp.server import ToolCaller
    from roslynmap.model.envelope import Envelope

    real_run = dispatch.run

    def run(name: str, args: dict[str, Any], *rest: Any) -> tuple[Envelope, bool]:
        if name == "repo_status":
            time.sleep(2.0)  # blocking, as git or a file walk would be
        return real_run(name, args, *rest)

    monkeypatch.setattr(dispatch, "run", run)
    caller = ToolCaller(None, Confinement(()))
    finished: dict[str, float] = {}

    async def both() -> None:
        start = time.monotonic()

        async def one(name: str) -> None:
            await caller.envelope(name, {"topic": "ids"} if name == "roslynmap_guide" else {})
            finished[name] = time.monotonic() - start

        async with anyio.create_task_group() as group:
            group.start_soon(one, "repo_status")
            await anyio.sleep(0.1)
            group.start_soon(one, "roslynmap_guide")

    anyio.run(both)
    assert finished["roslynmap_guide"] < 1.0 < 2.0 <= finished["repo_status"]


def test_fingerprint_walk_of_a_non_git_folder_is_bounded(tmp_path: Path, home: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from roslynmap.mcp import context, dispatch
    from roslynmap.store import repo as repo_module

    for index in range(30):
        (tmp_path / f"d{index}").mkdir()
        (tmp_path / f"d{index}" / "A.cs").write_text("class A {}")
    small = repo_module.inspect_repo(tmp_path)
    assert small.is_git is False and small.notes == ()
    monkeypatch.setattr(repo_module, "FINGERPRINT_MAX_ENTRIES", 10)
    bounded = repo_module.inspect_repo(tmp_path)
    assert bounded.commit.startswith("nogit") and bounded.commit != small.commit
    assert bounded.notes == (f"{tmp_path} is not a git repository and is too big to fingerprint whole (stopped "
                             "after 30 entries): changes to its files may not be noticed. Use a git repository, "
                             "or pass a smaller repo_path.",)
    context._identity_cache.pop(str(tmp_path), None)
    env, _ = dispatch.run("repo_status", {}, str(tmp_path), None)
    assert bounded.notes[0] in env["warnings"]


def test_read_connections_per_thread_are_bounded(shop: Path, home: Path, tmp_path: Path) -> None:
    """One connection per thread and baseline, least recently used closed beyond the bound."""
    from roslynmap.store import reader
    from roslynmap.store.repo import inspect_repo

    (baseline,) = (home / "repos" / inspect_repo(shop).repo_id / "baselines").glob("*.db")
    copies = []
    for index in range(reader.MAX_THREAD_CONNECTIONS + 2):
        copy = tmp_path / f"b{index}.db"
        shutil.copyfile(baseline, copy)
        copies.append(copy)

    def in_a_thread() -> None:
        first = reader.open_baseline(copies[0])
        assert reader.open_baseline(copies[0]) is first
        for copy in copies[1:]:
            reader.open_baseline(copy)
        assert len(reader._connections()) == reader.MAX_THREAD_CONNECTIONS
        with pytest.raises(sqlite3.ProgrammingError):  # the least recently used one was closed
            first.execute("SELECT 1")
        assert reader.open_baseline(copies[-1]).execute("SELECT count(*) FROM meta").fetchone()[0] > 0

    with ThreadPoolExecutor(1) as pool:
        pool.submit(in_a_thread).result(timeout=60)


# ---------------------------------------------------------------- workspace lock files

def test_unknown_workspaces_leave_no_lock_files(server: McpServerProcess, shop: Path, home: Path) -> None:
    workspaces = home / "repos" / server.call("repo_status")["data"]["repo_id"] / "workspaces"
    for index, (tool, args) in enumerate([("workspace_reset", {}), ("workspace_delete", {}),
                                          ("index_refresh_overlay", {}), ("symbols_search", {"query": "x"}),
                                          ("refs_find", {"symbol_id": ORDER_ID})]):
        env = server.call(tool, {**args, "workspace_id": f"ghost-{index}"})
        assert error(env)["code"] == "WORKSPACE_NOT_FOUND", tool
    assert sorted(workspaces.glob("ghost-*")) == []
    bad = server.call("workspace_create", {"workspace_id": "ghost-bad", "solution_path": "missing.sln"})
    assert error(bad)["code"] == "INVALID_ARGUMENT"
    assert sorted(workspaces.glob("ghost-*")) == []
    assert server.call("workspace_create", {"workspace_id": "ghost-real"})["ok"] is True
    assert server.call("workspace_delete", {"workspace_id": "ghost-real"})["ok"] is True
    assert sorted(workspaces.glob("ghost-*")) == []
    # locks an older version left behind go once they are a minute old
    stale = workspaces / "ghost-old.lock"
    stale.write_text("")
    os.utime(stale, (time.time() - 120, time.time() - 120))
    assert server.call("workspace_list")["ok"] is True
    assert not stale.exists()


def test_indexing_reads_no_appsettings_through_a_symlink_out(tmp_path: Path) -> None:
    """appsettings*.json and launchSettings.json facts (values shown by surfaces_list_config_keys) come only from
    files inside."""
    from roslynmap.roslyn.appsettings import definition_facts

    repo, outside = tmp_path / "repo", tmp_path / "outside"
    (repo / "src").mkdir(parents=True)
    outside.mkdir()
    (outside / "secrets.json").write_text('{"Token": "abc"}')
    (repo / "src" / "appsettings.json").write_text('{"Logging": {"Level": "Info"}}')
    (repo / "src" / "appsettings.Production.json").symlink_to(outside / "secrets.json")
    (outside / "launch.json").write_text('{"profiles": {"p": {"environmentVariables": {"Token": "abc"}}}}')
    (repo / "src" / "Properties").mkdir()
    (repo / "src" / "Properties" / "launchSettings.json").symlink_to(outside / "launch.json")
    rows = definition_facts(repo)
    assert [(r.file, r.key) for r in rows] == [("src/appsettings.json", "Logging:Level")]


def test_http_server_is_confined_too(shop: Path, home: Path) -> None:
    """Over HTTP any local process can call: the same confinement applies."""
    import asyncio

    from tests.test_http import call_over_http, start_http_server

    proc, url = start_http_server(shop, home)
    try:
        passwd = asyncio.run(call_over_http(url, "code_get_span", {"repo_path": "/etc", "file_path": "passwd"}))
        assert error(passwd)["code"] == "PATH_OUTSIDE_REPO"
        git = asyncio.run(call_over_http(url, "code_get_span", {"file_path": ".git/config"}))
        assert error(git)["code"] == "PATH_OUTSIDE_REPO"
    finally:
        proc.terminate()
        proc.wait(timeout=20)
