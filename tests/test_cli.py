"""CLI behaviour: hints spelled for the command line, and a reader that leaves early (`| head`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import roslynmap
from tests.mcp_client import McpServerProcess


def two_solutions(tmp_path: Path) -> Path:
    repo = tmp_path / "two"
    repo.mkdir()
    for name in ("A.sln", "B.sln"):
        (repo / name).write_text("")
    return repo


def test_ambiguous_solutions_hint_names_all_in_each_spelling(tmp_path: Path, home: Path) -> None:
    repo = two_solutions(tmp_path)
    env = {"ROSLYNMAP_HOME": str(home)}
    text = roslynmap("index", str(repo), env=env)
    assert text.returncode == 1
    assert text.stdout == ("error AMBIGUOUS: 2 .sln files sit at the same depth; roslynmap will not guess.\n"
                           "hint: Pass one of them: --solution A.sln or --solution B.sln.\n")
    as_json = json.loads(roslynmap("index", str(repo), "--json", env=env).stdout)
    assert as_json["error"]["hint"] == "Pass one of them: --solution A.sln or --solution B.sln."
    server = McpServerProcess(repo, env)
    try:
        mcp = server.call("index_ensure_baseline", {})
    finally:
        server.close()
    assert mcp["error"]["hint"] == 'Pass one of them: solution_path="A.sln" or solution_path="B.sln".'


def test_closed_stdout_is_not_a_traceback(tmp_path: Path, home: Path) -> None:
    """`roslynmap ... | head` closes the pipe early: no BrokenPipeError traceback, for any command."""
    repo = two_solutions(tmp_path)
    for args in (["call", "repo_status", "{}", "--repo", str(repo)], ["index", str(repo), "--json"],
                 ["stats", "--repo", str(repo)], ["--help"]):
        proc = subprocess.Popen([sys.executable, "-m", "roslynmap.cli", *args], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env={**os.environ, "ROSLYNMAP_HOME": str(home)})
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()  # the reader is gone before the first write
        err = proc.stderr.read().decode()
        proc.wait(timeout=120)
        proc.stderr.close()
        assert "Traceback" not in err and "BrokenPipeError" not in err, (args, err)
