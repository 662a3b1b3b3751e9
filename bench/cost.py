"""What answers cost an agent (docs/benchmarks.md, "Cost"): the tool list, a one-line span, depth-2 graphs.

    ROSLYNMAP_HOME=<home with a baseline> python bench/cost.py REPO FILE LINE CALLEES_ID CALLERS_ID

Run it with PYTHONPATH pointing at another checkout's `python/` to measure that version the same way.
Sizes are the compact JSON of the envelope the server sends; ids are its quoted T:/M:/P:/F:/E: strings.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

from roslynmap.mcp import dispatch
from roslynmap.mcp.registry import TOOLS

ID = re.compile(r'"[TMPFE]:[^"]*"')


def size(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False))


def main(repo: str, file: str, line: int, callees_of: str, callers_of: str) -> None:
    from roslynmap.mcp.server import tool_list

    listed = sum(size(t.model_dump(by_alias=True, mode="json", exclude_none=True)) for t in tool_list())
    print(f"tools/list: {len(TOOLS)} tools, {listed} chars, {-(-listed // 4)} tokens")
    span, _ = dispatch.run("code_get_span", {"file_path": file, "start_line": line, "end_line": line}, repo)
    print(f"one-line code_get_span: {size(span)} chars, meta {size(span['meta'])}")
    for tool, target in (("graph_callees", callees_of), ("graph_callers", callers_of)):
        env, _ = dispatch.run(tool, {"symbol_id": target, "depth": 2, "token_budget": 10000}, repo)
        text = json.dumps(env, separators=(",", ":"), ensure_ascii=False)
        ids = sum(len(m) for m in ID.findall(text))
        nodes = len(env.get("data", {}).get("nodes", []))
        print(f"{tool} depth 2: {len(text)} chars, ids {ids} ({100 * ids / len(text):.0f} %), {nodes} nodes; "
              f"{env.get('answer') or env.get('error')}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5])
