"""`roslynmap serve`: the MCP server over stdio (default) or streamable HTTP. Pure Python, no CLR."""

from __future__ import annotations

import json
import logging
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

from roslynmap import __version__
from roslynmap.mcp import dispatch, inputs, preview
from roslynmap.mcp.confine import Confinement
from roslynmap.mcp.registry import SHARED_HELP, TOOLS
from roslynmap.model.envelope import Envelope

# Every call runs in a worker thread: SQLite reads, git and file walks never block the event loop (one
# slow repo_path must not stall other clients). Compiling tools get their own, smaller pool so they
# cannot take every thread from the quick ones.
QUICK_THREADS, SLOW_THREADS = 16, 4

INSTRUCTIONS = (
    "roslynmap answers questions about a C#/.NET repository from a Roslyn-compiled index: symbols, "
    "references, call graphs, source spans. Start with repo_status; if HEAD has no baseline call "
    "index_ensure_baseline once. Wherever a symbol_id is expected, an id from a result, a stable id or a plain "
    "name (OrderService.Place, or Place when unique) is accepted; several matches answer AMBIGUOUS with "
    "candidates. Every response has `answer`; when `truncated` is true, `overflow.hint` is the exact next call. "
    + SHARED_HELP
)


def tool_list() -> list[types.Tool]:
    """The tools as `tools/list` returns them. Every client sends this list to the model in every
    conversation, so it is kept small (docs/tools.md, "Cost"; tests/fast/test_tool_list.py): compact
    schemas (registry.Tool.input_schema) and only the annotations that differ from MCP's defaults
    (readOnlyHint false, destructiveHint true, idempotentHint false; openWorldHint is left at its
    default: no tool reaches beyond the repository, and saying so on every tool costs ~200 tokens)."""
    out = []
    for tool in TOOLS.values():
        if tool.read_only:
            hints = types.ToolAnnotations(read_only_hint=True)
        else:
            hints = types.ToolAnnotations(destructive_hint=tool.destructive, idempotent_hint=tool.idempotent or None)
        out.append(types.Tool(name=tool.name, description=tool.description, input_schema=tool.input_schema(),
                              annotations=hints))
    return out


def tool_list_json(tools: list[types.Tool]) -> list[str]:
    """Each tool exactly as the server serializes it on the wire (by alias, no nulls)."""
    return [json.dumps(t.model_dump(by_alias=True, mode="json", exclude_none=True), separators=(",", ":"),
                       ensure_ascii=False) for t in tools]


class ToolCaller:
    """Runs tool calls in worker threads (two pools) and renders their result."""

    def __init__(self, default_repo: str | None, allowed: Confinement) -> None:
        self.default_repo, self.allowed = default_repo, allowed
        self.quick = anyio.CapacityLimiter(QUICK_THREADS)
        self.slow = anyio.CapacityLimiter(SLOW_THREADS)

    async def envelope(self, name: str, args: dict[str, Any]) -> tuple[Envelope, bool]:
        def call() -> tuple[Envelope, bool]:
            return dispatch.run(name, args, self.default_repo, None, self.allowed)

        return await anyio.to_thread.run_sync(call, limiter=self.slow if dispatch.is_slow(name) else self.quick)

    async def result(self, name: str, args: dict[str, Any]) -> types.CallToolResult:
        env, is_error = await self.envelope(name, args)
        text = preview.render(env, inputs.budget_of(args))
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=text)], structured_content=dict(env), is_error=is_error
        )


def build_server(default_repo: str | None, allowed: Confinement) -> Server[Any]:
    caller = ToolCaller(default_repo, allowed)

    async def on_list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tool_list())

    async def on_call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        return await caller.result(params.name, dict(params.arguments or {}))

    return Server(
        "roslynmap",
        version=__version__,
        instructions=INSTRUCTIONS,
        on_list_tools=on_list_tools,
        on_call_tool=on_call_tool,
    )


async def serve_stdio(default_repo: str | None, allowed: Confinement) -> None:
    server = build_server(default_repo, allowed)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


async def serve_http(default_repo: str | None, port: int, allowed: Confinement) -> None:
    """Streamable HTTP on 127.0.0.1 only: the server reads the user's code, so it is never exposed."""
    import uvicorn

    app = build_server(default_repo, allowed).streamable_http_app(host="127.0.0.1")
    await uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")).serve()


def run_http(default_repo: str | None, port: int, allowed: Confinement) -> None:
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    anyio.run(serve_http, default_repo, port, allowed)


def run_stdio(default_repo: str | None, allowed: Confinement) -> None:
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    anyio.run(serve_stdio, default_repo, allowed)
