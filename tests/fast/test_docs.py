"""The docs say what the code does: docs/tools.md documents exactly the registered tools and their parameters."""

from __future__ import annotations

import re
from pathlib import Path

from roslynmap.mcp import dispatch  # noqa: F401  (registers every tool)
from roslynmap.mcp.registry import TOOLS, WorkspaceParams

DOCS = Path(__file__).resolve().parents[2] / "docs"
ROW = re.compile(r"^\| `(?P<tool>[a-z_]+)` \| (?P<params>[^|]*) \|")
COMMON = set(WorkspaceParams.model_fields)  # repo_path, token_budget, workspace_id, …: documented once above


def documented() -> dict[str, set[str]]:
    """{tool: parameter names} from the tables of docs/tools.md; "same" repeats the row above."""
    out: dict[str, set[str]] = {}
    previous: set[str] = set()
    for line in (DOCS / "tools.md").read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if not match:
            continue
        cell = match["params"].strip()
        # parameter names are the backticked words of the cell (`name`, `name?`, `name` (default)),
        # values quoted inside parentheses are not (but "(+ `col`)" is)
        names = {n.rstrip("?") for n in re.findall(r"`([a-z_]+\??)`", re.sub(r"\((?!\+)[^)]*\)", "", cell))}
        out[match["tool"]] = previous if cell == "same" else names
        previous = out[match["tool"]]
    return out


def test_tools_md_documents_exactly_the_registered_tools() -> None:
    assert sorted(documented()) == sorted(TOOLS)


def test_tools_md_documents_exactly_each_tools_parameters() -> None:
    docs = documented()
    wrong = {name: {"undocumented": sorted(set(tool.params.model_fields) - COMMON - docs[name]),
                    "not_a_parameter": sorted(docs[name] - set(tool.params.model_fields))}
             for name, tool in TOOLS.items()}
    assert {k: v for k, v in wrong.items() if v["undocumented"] or v["not_a_parameter"]} == {}
