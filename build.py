#!/usr/bin/env python3
"""roslynmap's one entry point: `python build.py [setup|demo|test|bench|lint|wheel]`.

setup  create .venv, install Python deps (from ../shared/wheelhouse when present), build the C# bridge
       (Roslyn pinned from NuGet in dotnet/RoslynMap.Bridge/RoslynMap.Bridge.csproj) into dotnet/out
demo   setup, then index the bundled sample solution and show a few answers
test   setup, then ruff, mypy and pytest; `test --fast`: only tests/fast (no MSBuild, no bridge build)
bench  setup, then the benchmark (writes docs/benchmarks.md)
lint   ruff and mypy only
wheel  setup, then dist/roslynmap-*.whl carrying the compiled bridge (what `pip install` / pipx / uvx use)
Every step is idempotent and skips work that is already up to date.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
WHEELHOUSE = ROOT.parent / "shared" / "wheelhouse"
BRIDGE_PROJECT = ROOT / "dotnet" / "RoslynMap.Bridge"
BRIDGE_OUT = ROOT / "dotnet" / "out"


def say(message: str) -> None:
    print(f"[build] {message}", flush=True)


def run(cmd: list[str], **kwargs: object) -> None:
    say(" ".join(str(c) for c in cmd))
    subprocess.run(cmd, check=True, **kwargs)  # type: ignore[call-overload]


def venv_bin(name: str) -> Path:
    return VENV / ("Scripts" if os.name == "nt" else "bin") / name


def digest(paths: list[Path], extra: str = "") -> str:
    h = hashlib.sha256(extra.encode())
    for path in sorted(paths):
        h.update(str(path.relative_to(ROOT)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def ensure_python_env() -> None:
    if not venv_bin("python").exists():
        run([sys.executable, "-m", "venv", str(VENV)])
    stamp = VENV / ".roslynmap-deps"
    wanted = digest([ROOT / "pyproject.toml"], str(WHEELHOUSE.exists()))
    if stamp.exists() and stamp.read_text() == wanted:
        return
    pip = [str(venv_bin("python")), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    if WHEELHOUSE.is_dir():
        pip += ["--no-index", "--find-links", str(WHEELHOUSE)]
    run([*pip, "-e", f"{ROOT}[dev]"])
    stamp.write_text(wanted)


def ensure_bridge() -> None:
    """Builds the bridge into dotnet/out against the Roslyn pinned in its csproj (NuGet), BuildHost folders
    included (they come with Microsoft.CodeAnalysis.Workspaces.MSBuild's content files)."""
    sources = [p for p in BRIDGE_PROJECT.rglob("*") if p.suffix in {".cs", ".csproj"}
               and "bin" not in p.parts and "obj" not in p.parts]
    stamp = BRIDGE_OUT / ".roslynmap-bridge"
    wanted = digest(sources, f"nuget r2r={os.environ.get('ROSLYNMAP_READY_TO_RUN', '1')}")
    if stamp.exists() and stamp.read_text() == wanted and (BRIDGE_OUT / "RoslynMap.Bridge.dll").exists():
        return
    if shutil.which("dotnet") is None:
        sys.exit("[build] `dotnet` is not on PATH: install the .NET SDK 10 (https://dot.net) to build the bridge.")
    # A bridge built by earlier versions of this script held the SDK's own Roslyn (dotnet-format's folder,
    # recorded in roslyn-source.json): start clean so none of it lingers beside the pinned one.
    if (BRIDGE_OUT / "roslyn-source.json").exists():
        shutil.rmtree(BRIDGE_OUT)
    compile_bridge()
    if not (BRIDGE_OUT / "BuildHost-netcore").is_dir():
        sys.exit("[build] the bridge output has no BuildHost-netcore folder; Workspaces.MSBuild did not restore "
                 "its content files")
    stamp.write_text(wanted)


def host_rid() -> str | None:
    """The .NET runtime identifier of this machine (linux-x64, osx-arm64, win-x64...), None if unknown."""
    system = {"Linux": "linux", "Darwin": "osx", "Windows": "win"}.get(platform.system())
    arch = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(platform.machine().lower())
    return f"{system}-{arch}" if system and arch else None


def compile_bridge() -> None:
    """The bridge and Roslyn compiled ReadyToRun for this machine (docs/benchmarks.md: about a quarter less CPU
    to index, the JIT's share of Roslyn), else plain IL when crossgen cannot be had (no RID, a feed without
    Microsoft.NETCore.App.Crossgen2, ROSLYNMAP_READY_TO_RUN=0). ReadyToRun images keep their IL, so the output
    still runs anywhere (other platforms JIT it)."""
    rid = host_rid()
    if rid and os.environ.get("ROSLYNMAP_READY_TO_RUN", "1") != "0":
        done = subprocess.run(["dotnet", "publish", str(BRIDGE_PROJECT), "-c", "Release", "-nologo", "-v", "q",
                               "-r", rid, "--self-contained", "false", "-p:PublishReadyToRun=true",
                               "-o", str(BRIDGE_OUT)], capture_output=True, text=True, check=False)
        if done.returncode == 0:
            print(f"[build] bridge compiled ReadyToRun for {rid}")
            return
        print(f"[build] ReadyToRun unavailable ({(done.stdout + done.stderr).strip().splitlines()[-1:]}): "
              "building the bridge without it")
    run(["dotnet", "build", str(BRIDGE_PROJECT), "-c", "Release", "-nologo", "-v", "q", "-o", str(BRIDGE_OUT)])


def wheel(extra: list[str]) -> Path:
    """Builds dist/roslynmap-<version>-py3-none-any.whl with the compiled bridge inside (roslynmap/_bridge).

    The wheel is built from a staged copy of the project, so the source tree never holds a _bridge folder:
    a checkout (editable install) keeps finding dotnet/out (hosting.bridge_dir), never a stale copy."""
    ensure_python_env()
    ensure_bridge()
    dist = ROOT / "dist"
    dist.mkdir(exist_ok=True)
    for old in dist.glob("roslynmap-*.whl"):
        old.unlink()
    with tempfile.TemporaryDirectory(prefix="roslynmap-wheel-") as temp:
        staged = Path(temp)
        for name in ("pyproject.toml", "README.md"):
            shutil.copy2(ROOT / name, staged / name)
        shutil.copytree(ROOT / "python", staged / "python",
                        ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "_bridge"))
        shutil.copytree(BRIDGE_OUT, staged / "python" / "roslynmap" / "_bridge",
                        ignore=shutil.ignore_patterns(".roslynmap-bridge", "*.pdb"))
        # Offline and with this venv's setuptools: no build isolation, no index.
        run([str(venv_bin("python")), "-m", "pip", "wheel", "--disable-pip-version-check", "-q", "--no-deps",
             "--no-build-isolation", "--no-index", "-w", str(dist), str(staged), *extra])
    built = sorted(dist.glob("roslynmap-*.whl"))
    if not built:
        sys.exit("[build] pip wheel produced no wheel")
    say(f"wheel: {built[-1]}")
    return built[-1]


def setup() -> None:
    ensure_python_env()
    ensure_bridge()


def lint() -> None:
    run([str(venv_bin("ruff")), "check", "python", "tests", "bench"], cwd=ROOT)
    run([str(venv_bin("mypy"))], cwd=ROOT)


def test(extra: list[str]) -> None:
    if "--fast" in extra:  # the fast tier: store, query and envelope over in-process baselines
        ensure_python_env()
        rest = [a for a in extra if a != "--fast"]
        run([str(venv_bin("python")), "-m", "pytest", "-q", str(ROOT / "tests" / "fast"), *rest], cwd=ROOT)
        return
    setup()
    lint()
    run([str(venv_bin("python")), "-m", "pytest", "-q", *extra], cwd=ROOT)


def demo() -> None:
    setup()
    work = Path(tempfile.mkdtemp(prefix="roslynmap-demo-"))
    sys.path.insert(0, str(ROOT))
    from tests.repos import make_repo  # the same git repository the tests build: copy, commit, restore

    say("copying the sample solution into a git repository and restoring it")
    repo = make_repo(ROOT / "testdata" / "Shop", work / "Shop")
    env = {**os.environ, "ROSLYNMAP_HOME": str(work / "home")}
    roslynmap = str(venv_bin("roslynmap"))
    say(f"indexing {repo}")
    run([roslynmap, "index", str(repo)], env=env)
    calls = [
        ("repo_status", {}),
        ("symbols_search", {"query": "Repository", "limit": 5}),
        ("symbols_get_card", {"symbol_id": "T:Shop.Infrastructure.SqlOrderRepository"}),
        ("refs_find", {"symbol_id": "M:Shop.Domain.IOrderRepository.Save(Shop.Domain.Order)"}),
        ("graph_callers", {"symbol_id": "M:Shop.Infrastructure.SqlOrderRepository.Save(Shop.Domain.Order)",
                           "depth": 2}),
        ("types_hierarchy", {"symbol_id": "T:Shop.Domain.Discount"}),
        ("symbols_get_definition_span", {"symbol_id": "T:Shop.Domain.IOrderRepository", "max_lines": 12}),
    ]
    for tool, args in calls:
        print(f"\n$ roslynmap call {tool} '{json.dumps(args)}' --text", flush=True)
        subprocess.run([roslynmap, "call", tool, json.dumps(args), "--repo", str(repo), "--text"], env=env,
                       check=False)
    web = make_repo(ROOT / "testdata" / "Web", work / "Web")
    say(f"indexing the ASP.NET Core sample {web} (one project deliberately lacks its packages: partial)")
    subprocess.run([roslynmap, "index", str(web)], env=env, check=False)
    for tool, args in [("surfaces_list_endpoints", {"path_filter": "orders"}),
                       ("surfaces_list_config_keys", {"key_filter": "Features"}),
                       ("graph_trace_feature", {"entry_point": "GET /api/Orders/{id:int}", "depth": 4})]:
        print(f"\n$ roslynmap call {tool} '{json.dumps(args)}' --text", flush=True)
        subprocess.run([roslynmap, "call", tool, json.dumps(args), "--repo", str(web), "--text"], env=env,
                       check=False)
    print("\nEvery call above also returns a JSON envelope for agents: drop --text to see it.", flush=True)
    say(f"done. Try: {roslynmap} serve --repo {repo}   (ROSLYNMAP_HOME={work / 'home'})")


def bench(extra: list[str]) -> None:
    setup()
    run([str(venv_bin("python")), str(ROOT / "bench" / "run.py"), *extra], cwd=ROOT)


def main() -> None:
    command = sys.argv[1] if len(sys.argv) > 1 else "setup"
    extra = sys.argv[2:]
    if command == "setup":
        setup()
    elif command == "demo":
        demo()
    elif command == "test":
        test(extra)
    elif command == "bench":
        bench(extra)
    elif command == "wheel":
        wheel(extra)
    elif command == "lint":
        ensure_python_env()
        lint()
    else:
        sys.exit(f"unknown command {command!r}; use setup, demo, test, bench, lint or wheel")


if __name__ == "__main__":
    main()
