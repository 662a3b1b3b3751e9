"""A repository whose global.json pins an SDK this machine lacks (testdata/SdkPin, as davidfowl/TodoApi pins
9.0.100 where only a newer SDK is installed), over MCP stdio.

`dotnet` refuses every command under such a folder and MSBuildWorkspace's build host fails the load. roslynmap
restores from a folder the pin does not govern and loads through a mirror of links without it: the index is as
complete as with the right SDK, and says which SDK it used instead.
"""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import indexed_copy, roslynmap, serving
from tests.mcp_client import McpServerProcess, edited_workspace


@pytest.fixture(scope="module")
def pinned_repo(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Path:
    # restore=False: the test's own `dotnet restore` would meet the pin; roslynmap restores what lacks assets
    return indexed_copy("SdkPin", tmp_path_factory.mktemp("repos") / "SdkPin", home, restore=False)


@pytest.fixture(scope="module")
def pinned(pinned_repo: Path, home: Path) -> Iterator[McpServerProcess]:
    yield from serving(pinned_repo, home)


def installed_sdk() -> str:
    """What `dotnet` picks where no global.json governs."""
    with tempfile.TemporaryDirectory() as free:
        return subprocess.run(["dotnet", "--version"], cwd=free, capture_output=True, text=True,
                              check=True).stdout.strip()


def test_the_pin_is_unmet_here(pinned_repo: Path) -> None:
    done = subprocess.run(["dotnet", "--version"], cwd=pinned_repo, capture_output=True, text=True, check=False)
    assert done.returncode != 0
    assert "A compatible .NET SDK was not found" in done.stdout + done.stderr


def test_the_index_is_complete_and_names_the_sdk_it_used(pinned: McpServerProcess) -> None:
    env = pinned.call("index_ensure_baseline", {"force": True, "restore": True})
    assert env["data"]["built"] is True
    assert env["data"]["semantic_level"] == "full"
    assert env["data"]["counts"]["projects"] == 1
    assert env["data"]["workspace_diagnostics"] == [
        f"global.json pins .NET SDK 99.0.100, which is not installed: restored and loaded with SDK "
        f"{installed_sdk()} instead (a build with the pinned SDK may differ)."]
    assert (env["data"]["restore"]["status"], env["data"]["restore"]["mode"]) == ("restored", "solution")
    routes = pinned.call("surfaces_list_endpoints", {})["data"]["endpoints"]
    assert [(e["method"], e["route"], e["line"]) for e in routes] == [
        ("GET", "/todos", 8), ("GET", "/todos/{id:int}", 9)]
    impls = pinned.call("types_hierarchy", {"symbol_id": "IClock"})["data"]["descendants"]
    assert [d["symbol_id"] for d in impls] == ["T:Pinned.Api.SystemClock"]


def test_a_workspace_refresh_loads_through_the_mirror_too(pinned_repo: Path, pinned: McpServerProcess) -> None:
    with edited_workspace(pinned, pinned_repo / "src/Pinned.Api/Program.cs", "Results.Ok(id)", "Results.Ok(id.Length)",
                          "pin") as refreshed:
        assert refreshed["ok"], refreshed
    assert [(e["code"], e["file"], e["line"]) for e in refreshed["data"]["new_errors"]] == [
        ("CS1061", "src/Pinned.Api/Program.cs", 9)]


def test_the_cli_says_which_sdk_it_used(pinned_repo: Path, home: Path) -> None:
    done = roslynmap("index", str(pinned_repo), env={"ROSLYNMAP_HOME": str(home)})
    assert (f"  note: global.json pins .NET SDK 99.0.100, which is not installed: restored and loaded with SDK "
            f"{installed_sdk()} instead (a build with the pinned SDK may differ).") in done.stdout.splitlines()


@pytest.fixture(scope="module")
def pinned_below(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Iterator[McpServerProcess]:
    yield from serving(indexed_copy("SdkPinBelow", tmp_path_factory.mktemp("repos") / "SdkPinBelow", home,
                                    restore=False), home)


def test_a_pin_below_the_solutions_folder_is_worked_around_too(pinned_below: McpServerProcess) -> None:
    """dapr-traffic-control has no solution and pins SDK 8.0.0 in src/global.json: a .slnx made at the repository's
    root was loaded as unpinned and the build host failed the whole load (`A compatible .NET SDK was not found`,
    COMPILATION_FAILED). testdata/SdkPinBelow: the pin under src/ is found, restored and loaded around."""
    env = pinned_below.call("index_ensure_baseline", {"force": True, "restore": True})
    assert env["ok"], env
    assert (env["data"]["built"], env["data"]["semantic_level"], env["data"]["counts"]["projects"]) == (
        True, "full", 1)
    assert env["data"]["workspace_diagnostics"] == [
        f"src/global.json pins .NET SDK 99.0.100, which is not installed: restored and loaded with SDK "
        f"{installed_sdk()} instead (a build with the pinned SDK may differ)."]
    impls = pinned_below.call("types_hierarchy", {"symbol_id": "IClock"})["data"]["descendants"]
    assert [d["symbol_id"] for d in impls] == ["T:Below.Lib.SystemClock"]
