"""The wheel users install (`pipx install roslynmap`, `uvx roslynmap`): built by `python build.py wheel`,
installed offline into a fresh virtual environment outside the source tree, it indexes and queries the
Shop sample with the bridge it carries (no checkout, no build step, no ROSLYNMAP_BRIDGE_DIR)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.repos import ROOT, TESTDATA, make_repo

WHEELHOUSE = ROOT.parent / "shared" / "wheelhouse"
BRIDGE_OUT = ROOT / "dotnet" / "out"


@pytest.fixture(scope="module")
def wheel() -> Path:
    done = subprocess.run([sys.executable, str(ROOT / "build.py"), "wheel"], capture_output=True, text=True,
                          timeout=900, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    built = sorted((ROOT / "dist").glob("roslynmap-*-py3-none-any.whl"))
    assert len(built) == 1
    return built[0]


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    if not WHEELHOUSE.is_dir():
        pytest.skip(f"no offline wheelhouse at {WHEELHOUSE}")
    folder = tmp_path_factory.mktemp("wheel") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True, timeout=300)
    done = subprocess.run([str(folder / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                           "--no-compile", "--no-index", "--find-links", str(WHEELHOUSE), str(wheel)],
                          capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    yield folder


def clean_env(venv: Path, home: Path) -> dict[str, str]:
    """The user's shell: the venv's bin on PATH, nothing pointing back into this checkout."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "ROSLYNMAP_BRIDGE_DIR", "ROSLYNMAP_CACHE_DIR")}
    return {**env, "PATH": f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}", "ROSLYNMAP_HOME": str(home)}


def test_wheel_carries_the_bridge(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    bridge = sorted(n.removeprefix("roslynmap/_bridge/") for n in names if n.startswith("roslynmap/_bridge/"))
    expected = sorted(str(p.relative_to(BRIDGE_OUT)) for p in BRIDGE_OUT.rglob("*")
                      if p.is_file() and p.suffix != ".pdb" and p.name != ".roslynmap-bridge")
    assert bridge == expected
    assert {"RoslynMap.Bridge.dll", "Microsoft.CodeAnalysis.Workspaces.MSBuild.dll",
            "BuildHost-netcore/Microsoft.CodeAnalysis.Workspaces.MSBuild.BuildHost.dll"} <= set(bridge)
    assert not any(n.startswith(("tests/", "testdata/", "dotnet/")) for n in names)


def test_installed_wheel_indexes_and_queries_shop(venv: Path, tmp_path: Path) -> None:
    work = tmp_path / "elsewhere"  # outside the source tree: nothing can be imported from the checkout
    work.mkdir()
    env = clean_env(venv, tmp_path / "home")
    where = subprocess.run([str(venv / "bin" / "python"), "-c",
                            "import roslynmap.roslyn.hosting as h; print(h.bridge_dir()); "
                            "print(h.bridge_roslyn_version())"],
                           capture_output=True, text=True, cwd=work, env=env, check=True)
    site = next((venv / "lib").glob("python3*/site-packages"))
    assert where.stdout.splitlines() == [str(site / "roslynmap" / "_bridge"), "5.12.0"]

    repo = make_repo(TESTDATA / "Shop", work / "Shop")
    exe = str(venv / "bin" / "roslynmap")
    done = subprocess.run([exe, "index", str(repo), "--json"], capture_output=True, text=True, cwd=work, env=env,
                          timeout=900, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    out = json.loads(done.stdout)
    assert (out["source"], out["semantic_level"], out["counts"]["projects"]) == ("built", "full", 4)

    # From inside the repository, without --repo: what an MCP client that starts the server in the project does.
    found = subprocess.run([exe, "call", "symbols_search", json.dumps({"query": "Repository",
                                                                       "kinds": ["Class", "Interface"]})],
                           capture_output=True, text=True, cwd=repo / "src", env=env, timeout=300, check=False)
    assert found.returncode == 0, found.stdout + found.stderr
    answer = json.loads(found.stdout)
    assert answer["ok"] is True
    # The same seven types the source checkout finds (test_tools_symbols); the order is ranking's business.
    assert sorted(r["symbol_id"] for r in answer["data"]["results"]) == [
        "T:Shop.Domain.IOrderRepository", "T:Shop.Domain.IRepository`1", "T:Shop.Domain.Repository`1",
        "T:Shop.Infrastructure.CustomerRepository", "T:Shop.Infrastructure.InMemoryOrderRepository",
        "T:Shop.Infrastructure.SqlOrderRepository", "T:Shop.Infrastructure.StatisticsCollector"]


def test_a_runtime_older_than_the_bridge_is_a_clear_error(tmp_path: Path) -> None:
    from roslynmap.model.errors import RoslynMapError
    from roslynmap.roslyn.hosting import check_runtime

    for version in ("8.0.11", "9.0.4"):
        (tmp_path / "shared" / "Microsoft.NETCore.App" / version).mkdir(parents=True)
    with pytest.raises(RoslynMapError) as caught:
        check_runtime(tmp_path)
    assert caught.value.message == (f"roslynmap's bridge needs the .NET 10 runtime or newer; {tmp_path} has only "
                                    "8.0.11, 9.0.4.")
    (tmp_path / "shared" / "Microsoft.NETCore.App" / "10.0.12").mkdir()
    check_runtime(tmp_path)  # no error
