"""The mcp package's public face for cli.py: serve, call one tool, render a result, confine paths.

cli.py imports this module only (tests/test_layers.py checks it), so the rest of mcp/ may change
freely. Imports are deferred: `roslynmap index` never loads the MCP SDK.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from roslynmap.mcp.confine import Confinement


def confinement(repos: Iterable[str] = (), allow_roots: Iterable[str] = (), cwd: str | None = None) -> Confinement:
    """The repositories a server or a call may read (docs/security.md)."""
    from roslynmap.mcp import confine

    return confine.build(repos, allow_roots, cwd)


def working_repo(cwd: str) -> str | None:
    """The git work tree containing `cwd`: the repository `serve` answers for without --repo."""
    from roslynmap.mcp import confine

    return confine.working_repo(cwd)


def serve(default_repo: str | None, allowed: Confinement, http_port: int | None = None) -> None:
    """Runs the MCP server on stdio, or on streamable HTTP at 127.0.0.1:`http_port`, until it is stopped."""
    from roslynmap.mcp import server

    if default_repo:
        warm_repository(default_repo)
    if http_port is not None:
        server.run_http(default_repo, http_port, allowed)
    else:
        server.run_stdio(default_repo, allowed)


def warm_repository(repo_path: str) -> str:
    """At server start: a repository with workspaces will see overlay refreshes, so its solution is loaded in
    the background now (workspace/warm.py). Never fails the server."""
    from roslynmap.model.errors import RoslynMapError
    from roslynmap.store.repo import inspect_repo
    from roslynmap.workspace import overlays, warm

    try:
        repo = inspect_repo(repo_path)
        if not overlays.list_ids(repo.repo_id):
            return "no_workspaces"
        return warm.start(repo)
    except RoslynMapError:
        return "no_repository"


def call(tool: str, args: Any, default_repo: str | None, allowed: Confinement,
         previews: list[str] | None = None) -> dict[str, Any]:
    """One tool call, exactly as the server would answer it: the response envelope."""
    from roslynmap.mcp import dispatch

    env, _ = dispatch.run(tool, args, default_repo, previews, allowed)
    return dict(env)


def render(env: dict[str, Any], budget: int | None = None) -> str:
    """An envelope as the text content an MCP client gets (the whole answer, compactly)."""
    from roslynmap.mcp import preview
    from roslynmap.model.envelope import Envelope

    return preview.render(cast(Envelope, env), budget)
