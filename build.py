#!/usr/bin/env python3
"""roslynmap's one entry point: `python build.py [setup|demo|test|bench|lint]`.

setup  create .venv, install Python deps (from ../shared/wheelhouse when present), build the C# bridge
demo   setup, then index the bundled sample solution and show a few answers
test   setup, then ruff, mypy and pytest; `test --fast`: only tests/fast (no MSBuild, no bridge build)
bench  setup, then the benchmark (writes docs/benchmarks.md)
lint   ruff and mypy only
Every step is idempotent and skips work that is already up to date.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
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
ROSLYN_ANCHOR = "Microsoft.CodeAnalysis.Workspaces.MSBuild.dll"


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


def roslyn_dir() -> Path:
    """Roslyn's workspace assemblies: ROSLYNMAP_ROSLYN_DIR, else the newest SDK's dotnet-format tool folder.

    NuGet's Microsoft.CodeAnalysis.Workspaces.MSBuild 5.x needs packages a partial mirror may lack;
    every .NET SDK (6+) ships the same assemblies, BuildHost folders included, beside dotnet-format.
    """
    configured = os.environ.get("ROSLYNMAP_ROSLYN_DIR")
    if configured:
        return Path(configured)
    listing = subprocess.run(["dotnet", "--list-sdks"], capture_output=True, text=True, check=True).stdout
    sdks = []
    for line in listing.splitlines():
        match = re.match(r"(\S+) \[(.+)\]", line.strip())
        if match:
            folder = Path(match.group(2)) / match.group(1) / "DotnetTools" / "dotnet-format"
            if (folder / ROSLYN_ANCHOR).exists():
                key = tuple(int(p) if p.isdigit() else 0 for p in re.split(r"[.-]", match.group(1)))
                sdks.append((key, folder))
    if not sdks:
        sys.exit("[build] No .NET SDK with DotnetTools/dotnet-format found; install the .NET SDK 8+ "
                 "or set ROSLYNMAP_ROSLYN_DIR to a folder holding the Roslyn workspace assemblies.")
    return max(sdks)[1]


def ensure_bridge() -> None:
    roslyn = roslyn_dir()
    sources = [p for p in BRIDGE_PROJECT.rglob("*") if p.suffix in {".cs", ".csproj"}
               and "bin" not in p.parts and "obj" not in p.parts]
    stamp = BRIDGE_OUT / ".roslynmap-bridge"
    wanted = digest(sources, str(roslyn))
    if stamp.exists() and stamp.read_text() == wanted and (BRIDGE_OUT / "RoslynMap.Bridge.dll").exists():
        return
    run(["dotnet", "build", str(BRIDGE_PROJECT), "-c", "Release", "-nologo", "-v", "q",
         f"-p:RoslynDir={roslyn}", "-o", str(BRIDGE_OUT)])
    # The workspace needs its whole dependency closure and the BuildHost folders beside it.
    for dll in roslyn.glob("*.dll"):
        if dll.name != "dotnet-format.dll" and not (BRIDGE_OUT / dll.name).exists():
            shutil.copy2(dll, BRIDGE_OUT / dll.name)
    for host in roslyn.glob("BuildHost-*"):
        shutil.copytree(host, BRIDGE_OUT / host.name, dirs_exist_ok=True)
    (BRIDGE_OUT / "roslyn-source.json").write_text(json.dumps({"roslyn_dir": str(roslyn)}))
    stamp.write_text(wanted)


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
    elif command == "lint":
        ensure_python_env()
        lint()
    else:
        sys.exit(f"unknown command {command!r}; use setup, demo, test, bench or lint")


if __name__ == "__main__":
    main()
