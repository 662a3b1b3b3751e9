"""The layer rule of docs/architecture.md, checked on every import of python/roslynmap (function-level ones too).

A package may import only the packages LAYERS allows (its own always; `roslynmap` itself, which holds
only __version__, from anywhere). Two more rules: cli.py reaches into mcp only through mcp/api.py, and
only the worker side of roslyn/ (hosting.py, worker.py) may load the CLR, which no other package imports.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "python" / "roslynmap"

# The rule, written once: who may import whom. Data flows load -> extract -> store -> query -> respond.
LAYERS: dict[str, set[str]] = {
    "model": set(),                                          # types and settings: nothing of ours
    "store": {"model"},                                      # SQLite: schema, writer, readers, cache
    "roslyn": {"model", "store"},                            # the worker writes what it extracts
    "query": {"model", "store"},                             # pure reads: never a worker, git or workspace
    "workspace": {"model", "store", "roslyn"},               # baselines and overlays: may drive the worker
    "mcp": {"model", "store", "query", "workspace"},         # the server, tools, envelope
    "cli": {"model", "store", "query", "workspace", "mcp"},  # mcp through mcp/api.py only
}
CLI_MCP_API = "roslynmap.mcp.api"
CLR_MODULES = {"pythonnet", "clr"}
CLR_LOADERS = {"roslynmap.roslyn.hosting", "roslynmap.roslyn.worker"}
NO_PROCESSES = {"query", "model"}  # a query never starts git or a worker; model is plain data


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return "roslynmap"
    return "cli" if parts[1] == "cli" else parts[1]


def is_module(name: str) -> bool:
    relative = Path(*name.split(".")[1:])
    return (PACKAGE / relative).with_suffix(".py").is_file() or (PACKAGE / relative / "__init__.py").is_file()


def imports(code: str, here: str, is_package: bool) -> Iterator[tuple[int, str]]:
    """(line, imported module) for every import in module `here`, at any depth; `from a import b` names
    a.b when b is a module."""
    package = here if is_package else here.rpartition(".")[0]
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            for alias in node.names:
                full = f"{base}.{alias.name}"
                yield node.lineno, full if base.startswith("roslynmap") and is_module(full) else base


def violations() -> list[str]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        out += module_violations(path.read_text(encoding="utf-8"), module_name(path), path.name == "__init__.py")
    return out


def module_violations(code: str, source: str, is_package: bool = False) -> list[str]:
    out = []
    mine = layer(source)
    where = source.replace(".", "/") + ("/__init__.py" if is_package else ".py")
    for line, target in imports(code, source, is_package):
        top = target.split(".")[0]
        if top in CLR_MODULES and source not in CLR_LOADERS:
            out.append(f"{where}:{line} loads the CLR ({target}); only {sorted(CLR_LOADERS)} may")
        if top == "subprocess" and mine in NO_PROCESSES:
            out.append(f"{where}:{line} {mine} starts processes (subprocess); move that to store or workspace")
        if top != "roslynmap":
            continue
        theirs = layer(target)
        if target in CLR_LOADERS and mine != "roslyn":
            out.append(f"{where}:{line} imports {target}, which loads the CLR")
        if theirs in (mine, "roslynmap"):
            continue
        if theirs not in LAYERS[mine]:
            out.append(f"{where}:{line} {mine} -> {theirs} ({target}) is not allowed")
        elif mine == "cli" and theirs == "mcp" and target != CLI_MCP_API:
            out.append(f"{where}:{line} cli reaches into mcp internals ({target}); use {CLI_MCP_API}")
    return out


def test_every_package_is_in_the_rule() -> None:
    packages = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()} | {"cli"}
    assert packages == set(LAYERS)


def test_no_import_crosses_the_layers() -> None:
    assert violations() == []


def test_the_checker_sees_function_level_and_relative_imports() -> None:
    """The checker itself: function-level and relative imports of a forbidden layer are found."""
    code = "def f():\n    from roslynmap.workspace import overlays\n    from ..roslyn import client\n"
    assert module_violations(code, "roslynmap.query._layer_probe") == [
        "roslynmap/query/_layer_probe.py:2 query -> workspace (roslynmap.workspace.overlays) is not allowed",
        "roslynmap/query/_layer_probe.py:3 query -> roslyn (roslynmap.roslyn.client) is not allowed"]
    assert module_violations("from roslynmap.mcp import dispatch\n", "roslynmap.cli") == [
        "roslynmap/cli.py:1 cli reaches into mcp internals (roslynmap.mcp.dispatch); use roslynmap.mcp.api"]
    assert module_violations("import subprocess\n", "roslynmap.query.x") == [
        "roslynmap/query/x.py:1 query starts processes (subprocess); move that to store or workspace"]
    assert module_violations("import pythonnet\n", "roslynmap.roslyn.client") == [
        "roslynmap/roslyn/client.py:1 loads the CLR (pythonnet); only ['roslynmap.roslyn.hosting', "
        "'roslynmap.roslyn.worker'] may"]


def test_the_server_process_never_loads_the_clr() -> None:
    """Importing the whole server (every tool) leaves pythonnet and the bridge host unloaded."""
    probe = ("import sys, roslynmap.mcp.server, roslynmap.mcp.dispatch, roslynmap.cli; "
             "print(sorted(m for m in sys.modules if m in ('clr', 'pythonnet', 'roslynmap.roslyn.hosting', "
             "'roslynmap.roslyn.worker')))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60)
    assert done.stdout.strip() == "[]"
