"""`roslynmap serve --http PORT`: the same tools over streamable HTTP, bound to 127.0.0.1."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def call_over_http(url: str, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    async with streamable_http_client(url) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        result = await session.call_tool(tool, args)
        content: dict[str, Any] = result.structured_content
        return content


def start_http_server(repo: Path, home: Path) -> tuple[subprocess.Popen[bytes], str]:
    """`roslynmap serve --repo REPO --http PORT` on a free port, once it accepts connections (at most
    30 s): the process and the MCP endpoint URL. The caller terminates it."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "roslynmap.cli", "serve", "--repo", str(repo), "--http", str(port)],
                            env={**os.environ, "ROSLYNMAP_HOME": str(home)}, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            time.sleep(0.2)
    return proc, f"http://127.0.0.1:{port}/mcp"


def test_tools_over_streamable_http(shop: Path, home: Path) -> None:
    proc, url = start_http_server(shop, home)
    try:
        env = asyncio.run(call_over_http(url, "symbols_search",
                                         {"query": "SqlOrderRepository", "limit": 1}))
        assert env["ok"] and env["data"]["results"][0]["symbol_id"] == "T:Shop.Infrastructure.SqlOrderRepository"
    finally:
        proc.terminate()
        proc.wait(timeout=20)
