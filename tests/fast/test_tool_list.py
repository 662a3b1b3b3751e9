"""The tool list is paid for in every conversation (DESIGN §8: at most 4,000 tokens, chars/4).

Measured as a client receives it: `tools/list` through the MCP SDK's in-process client against the real
server object, each tool serialized the way the SDK puts it on the wire (by alias, no nulls).
"""

from __future__ import annotations

import json
from typing import Any

import anyio
from mcp import Client
from roslynmap.mcp import api
from roslynmap.mcp.registry import SHARED, TOOLS
from roslynmap.mcp.server import INSTRUCTIONS, build_server

MAX_TOKENS = 4000
CHARS_PER_TOKEN = 4
NEW_TOOL_MAX_DESCRIPTION = 300  # tools added after issue 14's cost work (docs/tools.md, "Cost")


def listed_tools() -> list[dict[str, Any]]:
    async def fetch() -> list[dict[str, Any]]:
        async with Client(build_server(None, api.confinement([]))) as client:
            result = await client.list_tools()
        return [t.model_dump(by_alias=True, mode="json", exclude_none=True) for t in result.tools]

    return anyio.run(fetch)


def tokens(value: Any) -> int:
    return -(-len(json.dumps(value, separators=(",", ":"), ensure_ascii=False)) // CHARS_PER_TOKEN)


def test_the_tool_list_costs_at_most_4000_tokens() -> None:
    tools = listed_tools()
    assert sorted(t["name"] for t in tools) == sorted(TOOLS)
    total = sum(tokens(t) for t in tools)
    biggest = sorted(((tokens(t), t["name"]) for t in tools), reverse=True)[:8]
    assert total <= MAX_TOKENS, f"tools/list is {total} tokens (max {MAX_TOKENS}); biggest: {biggest}"


def test_every_tool_says_first_when_to_use_it_in_few_words() -> None:
    long = {t["name"]: len(t["description"]) for t in listed_tools()
            if len(t["description"]) > NEW_TOOL_MAX_DESCRIPTION}
    assert long == {}
    assert [t["name"] for t in listed_tools() if not t["description"].startswith("Use ")] == []


def test_shared_parameters_are_explained_once_not_per_tool() -> None:
    described = {(t["name"], p) for t in listed_tools() for p, schema in t["inputSchema"]["properties"].items()
                 if p in SHARED and "description" in schema}
    assert described == set()
    assert all(p in INSTRUCTIONS for p in SHARED)
    # repo_path and token_budget: taken by every tool, listed only by repo_status (the first call) / by none
    listing = {p: sorted(t["name"] for t in listed_tools() if p in t["inputSchema"]["properties"])
               for p in ("repo_path", "token_budget")}
    assert listing == {"repo_path": ["repo_status"], "token_budget": []}
    assert tokens(INSTRUCTIONS) <= 250


def test_the_schema_keeps_what_a_model_needs() -> None:
    """Compact, not lossy: types, enums, required parameters and non-trivial defaults survive."""
    tools = {t["name"]: t for t in listed_tools()}
    refs = tools["refs_find"]["inputSchema"]
    assert refs["type"] == "object"
    assert refs["properties"]["resolution_state"] == {
        "enum": ["resolved", "unresolved"], "type": "string",
        "description": "unresolved: references the compiler could not bind."}
    assert refs["properties"]["offset"] == {"type": "integer"}
    assert "consistency" not in refs["properties"]  # only tools that read source lines advertise it
    text = tools["code_search_text"]["inputSchema"]  # a parameter named like a dropped keyword stays
    assert text["properties"]["pattern"] == {"type": "string"} and text["required"] == ["pattern"]
    span = tools["code_get_span"]["inputSchema"]
    assert span["required"] == ["file_path"]
    assert span["properties"]["start_line"] == {"default": 1, "type": "integer"}
    assert span["properties"]["consistency"] == {"enum": ["committed", "workspace", "ephemeral"], "type": "string"}
    assert tools["refs_find"]["annotations"] == {"readOnlyHint": True}
    assert tools["workspace_delete"]["annotations"] == {"destructiveHint": True}
    assert tools["index_ensure_baseline"]["annotations"] == {"destructiveHint": False, "idempotentHint": True}
