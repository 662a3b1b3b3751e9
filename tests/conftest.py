"""Session fixtures: the sample solution copied into a git repo, indexed once, served over MCP."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.mcp_client import McpServerProcess
from tests.repos import TESTDATA, make_repo

# testdata documents bind in milliseconds: a stalled extraction (docs/architecture.md) is retried after
# a minute, not the default five, in every CLI, server and worker process the tests start.
os.environ.setdefault("ROSLYNMAP_STALL_SECONDS", "60")
# Opening a testdata solution takes seconds; a stuck open (docs/architecture.md, "Why the hangs happened")
# fails after 4 minutes and is redone in a fresh worker, well inside pytest's 600 s per test.
os.environ.setdefault("ROSLYNMAP_OPEN_TIMEOUT_SECONDS", "240")
# The integration tier's expectations name symbols by their full documentation ids; the default short ids
# (query/shortids.py) are checked exactly by the fast tier (tests/fast/conftest.py unsets this) and over
# MCP by tests/test_contract.py::test_short_ids_over_mcp.
os.environ.setdefault("ROSLYNMAP_IDS", "full")
# No background solution loads (workspace/warm.py) in tests that do not ask for one: on two shared cores
# they would only slow the others. tests/test_warm.py turns it on.
os.environ.setdefault("ROSLYNMAP_WARM_LOAD", "0")


def roslynmap(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "roslynmap.cli", *args], capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=900, check=False)


def indexed_copy(sample: str, dest: Path, home: Path, exit_code: int = 0, restore: bool = True) -> Path:
    """testdata/<sample> as its own restored git repository, indexed by the CLI with the exit code
    the sample is built to produce (0 full, 2 degraded). `restore=False`: a sample whose restore fails by
    design (a project SDK that cannot be had) is left to roslynmap's own restore."""
    repo = make_repo(TESTDATA / sample, dest, restore=restore)
    done = roslynmap("index", str(repo), "--json", env={"ROSLYNMAP_HOME": str(home)})
    assert done.returncode == exit_code, done.stdout + done.stderr
    return repo


def serving(repo: Path, home: Path) -> Iterator[McpServerProcess]:
    """A `roslynmap serve` of `repo` for a module fixture (`yield from serving(...)`), closed when it ends."""
    proc = McpServerProcess(repo, {"ROSLYNMAP_HOME": str(home)})
    try:
        yield proc
    finally:
        proc.close()


def served_copy(sample: str, tmp_path_factory: pytest.TempPathFactory, home: Path, exit_code: int = 0,
                restore: bool = True) -> Iterator[McpServerProcess]:
    """testdata/<sample> indexed as its own repository (indexed_copy) and served (serving)."""
    yield from serving(indexed_copy(sample, tmp_path_factory.mktemp("repos") / sample, home, exit_code, restore), home)


@pytest.fixture(scope="session")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("home")
    os.environ["ROSLYNMAP_HOME"] = str(path)
    return path


@pytest.fixture(scope="session")
def shop(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Path:
    return indexed_copy("Shop", tmp_path_factory.mktemp("repos") / "Shop", home)


@pytest.fixture(scope="session")
def web_repo(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Path:
    """testdata/Web indexed once for the modules that only read it. Web.NoPackages lacks its packages by
    design: the baseline is partial (exit 2)."""
    return indexed_copy("Web", tmp_path_factory.mktemp("web") / "Web", home, exit_code=2)


@pytest.fixture(scope="session")
def generated_repo(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Path:
    """testdata/Generated (code only source generators use: CommunityToolkit.Mvvm, System.Text.Json) indexed once."""
    return indexed_copy("Generated", tmp_path_factory.mktemp("generated") / "Generated", home)


@pytest.fixture(scope="session")
def server(shop: Path, home: Path) -> Iterator[McpServerProcess]:
    proc = McpServerProcess(shop, {"ROSLYNMAP_HOME": str(home)})
    yield proc
    proc.close()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The correctness proof's agreement with Roslyn's SymbolFinder, printed after the run."""
    from tests.test_correctness import AGREEMENT

    for label, summary in AGREEMENT.items():
        terminalreporter.write_line(
            f"SymbolFinder agreement on {label}: {summary['agree']}/{summary['symbols']} symbols identical, "
            f"{summary['references']} references compared with their kinds {summary['by_kind']} "
            f"({summary['no_enclosing_symbol']} with no enclosing symbol); {len(summary['unexplained'])} "
            "unexplained differences")
