"""A synchronous handle on a real `roslynmap serve` process, spoken to over MCP stdio.

pytest tests are synchronous; the MCP client is async. One event loop runs in a background
thread for the whole session, and `call` blocks on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import threading
from collections.abc import Coroutine, Iterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any, TypeVar

from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

T = TypeVar("T")


class McpServerProcess:
    def __init__(self, repo: Path | None, env: dict[str, str], extra_args: list[str] | None = None,
                 cwd: Path | None = None) -> None:
        self.repo = repo
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._stop: asyncio.Event | None = None
        self._done: asyncio.Future[None] | None = None
        args = ["-m", "roslynmap.cli", "serve"] + (["--repo", str(repo)] if repo else []) + (extra_args or [])
        self._params = StdioServerParameters(command=sys.executable, args=args, env={**os.environ, **env},
                                             cwd=str(cwd) if cwd else None)
        self.session: ClientSession = self._run(self._open())

    def _run(self, coro: Coroutine[Any, Any, T], timeout: float = 600) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout)

    async def _open(self) -> ClientSession:
        """Starts the task that owns the transport (anyio scopes must exit in the task that entered them)."""
        ready: asyncio.Future[ClientSession] = self._loop.create_future()
        self._stop = asyncio.Event()
        self._done = asyncio.ensure_future(self._own(ready))
        return await ready

    async def _own(self, ready: asyncio.Future[ClientSession]) -> None:
        try:
            async with AsyncExitStack() as stack:
                read, write = await stack.enter_async_context(stdio_client(self._params))
                session = await stack.enter_async_context(ClientSession(read, write))
                await session.initialize()
                ready.set_result(session)
                assert self._stop is not None
                await self._stop.wait()
        except BaseException as exc:
            if not ready.done():
                ready.set_exception(exc)
            raise

    def call_raw(self, name: str, args: dict[str, Any] | None = None) -> Any:
        return self._run(self.session.call_tool(name, args or {}))

    def call(self, name: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
        """The structured envelope of one tool call."""
        result = self.call_raw(name, args)
        content: dict[str, Any] = result.structured_content
        return content

    def list_tools(self) -> list[Any]:
        return list(self._run(self.session.list_tools()).tools)

    async def _shutdown(self) -> None:
        assert self._stop is not None and self._done is not None
        self._stop.set()
        await self._done

    def close(self) -> None:
        try:
            self._run(self._shutdown(), timeout=30)
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=10)


@contextlib.contextmanager
def edited_workspace(server: McpServerProcess, path: Path, old: str, new: str,
                     workspace_id: str) -> Iterator[dict[str, Any]]:
    """`path` with `old` replaced by `new`, refreshed into workspace `workspace_id`: yields the refresh's
    envelope; the file and the workspace are put back afterwards, whatever happens."""
    original = path.read_text()
    path.write_text(original.replace(old, new))
    try:
        assert server.call("workspace_create", {"workspace_id": workspace_id})["ok"]
        yield server.call("index_refresh_overlay", {"workspace_id": workspace_id})
    finally:
        path.write_text(original)
        server.call("workspace_delete", {"workspace_id": workspace_id})
