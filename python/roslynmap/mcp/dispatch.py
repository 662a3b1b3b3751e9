"""Calls a tool by name with raw JSON arguments and always returns an envelope (handlers never raise)."""

from __future__ import annotations

import difflib
import errno
import logging
import time
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from roslynmap.mcp import context, envelope, inputs, naming
from roslynmap.mcp import tools_guide as _tools_guide  # noqa: F401  (registers tools)
from roslynmap.mcp import tools_index as _tools_index  # noqa: F401
from roslynmap.mcp import tools_nav as _tools_nav  # noqa: F401
from roslynmap.mcp import tools_review as _tools_review  # noqa: F401
from roslynmap.mcp import tools_surfaces as _tools_surfaces  # noqa: F401
from roslynmap.mcp import tools_symbols as _tools_symbols  # noqa: F401
from roslynmap.mcp import tools_tasks as _tools_tasks  # noqa: F401
from roslynmap.mcp import tools_workspace as _tools_workspace  # noqa: F401
from roslynmap.mcp.confine import Confinement
from roslynmap.mcp.context import repo_identity
from roslynmap.mcp.registry import TOOLS, Tool, WorkspaceParams
from roslynmap.mcp.savings import whole_file_tokens
from roslynmap.mcp.tools_surfaces import FORMER
from roslynmap.model import settings
from roslynmap.model.envelope import Envelope
from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.store import stats

log = logging.getLogger("roslynmap")
PATH_ERRNOS = {errno.ENAMETOOLONG, errno.ELOOP}


def _validation_error(tool: Tool, exc: ValidationError) -> RoslynMapError:
    problems = []
    for err in exc.errors()[:5]:
        field = ".".join(str(p) for p in err["loc"]) or "(arguments)"
        problems.append(f"{field}: {err['msg']}")
    valid = ", ".join(tool.params.model_fields)
    return RoslynMapError(
        ErrorCode.INVALID_ARGUMENT,
        f"Invalid arguments for {tool.name}: " + "; ".join(problems),
        f"Valid parameters: {valid}.",
    )


def unknown_tool(name: str) -> RoslynMapError:
    if name in FORMER:  # a list tool folded into surfaces_list: say exactly how to call it now
        kind, renamed = FORMER[name]
        moved = "".join(f"; pass {new} instead of {old}" for old, new in renamed.items())
        return RoslynMapError(ErrorCode.INVALID_ARGUMENT, f"'{name}' is now surfaces_list(kind=\"{kind}\").",
                              f"Call surfaces_list(kind=\"{kind}\"){moved}.", candidates=[{"tool": "surfaces_list"}])
    close = difflib.get_close_matches(name.replace(".", "_"), list(TOOLS), n=3, cutoff=0.5)
    return RoslynMapError(
        ErrorCode.INVALID_ARGUMENT,
        f"Unknown tool '{name}'.",
        f"Did you mean {' or '.join(close)}?" if close else "Call roslynmap_guide for the list of tools.",
        candidates=[{"tool": c} for c in close],
    )


def prepare(name: str, args: dict[str, Any] | None, default_repo: str | None,
            allowed: Confinement | None = None) -> tuple[Tool, Any, str]:
    """Validates a call; raises RoslynMapError for an unknown tool, bad arguments, no repository or a
    repository the server may not read (`allowed`; None: not confined, for in-process callers)."""
    inputs.check_string("tool name", name)
    tool = TOOLS.get(name)
    if tool is None:
        raise unknown_tool(name)
    inputs.check_arguments(args or {})
    try:
        params = tool.params.model_validate(args or {})
    except ValidationError as exc:
        raise _validation_error(tool, exc) from exc
    # Lax validation turns "99999999999999999999" into an int: the parsed values are checked again.
    inputs.check_arguments(params.model_dump(exclude_none=True))
    if isinstance(params, WorkspaceParams):  # WORKSPACE_REQUIRED before any work, for every query tool
        context.check_consistency(params.workspace_id, params.consistency, params.virtual_files)
    repo_path = params.repo_path or default_repo or ""
    if not repo_path and tool.needs_repo:
        raise RoslynMapError(
            ErrorCode.INVALID_ARGUMENT,
            "No repository: pass repo_path (the server was started without --repo).",
            "Pass repo_path=\"/absolute/path/to/repo\".",
        )
    if repo_path and tool.needs_repo and allowed is not None:
        allowed.check(repo_path)
        allowed.check_root(repo_identity(repo_path).root)
    return tool, params, repo_path


def run(
    name: str, args: dict[str, Any] | None, default_repo: str | None, previews: list[str] | None = None,
    allowed: Confinement | None = None,
) -> tuple[Envelope, bool]:
    """(envelope, is_internal_error). Only INTERNAL sets MCP isError (DESIGN §9).

    `previews` receives the handler's preview lines (kept for callers written before the text content
    became a rendering of the whole envelope, mcp/preview.py).
    """
    started = time.perf_counter()
    args = dict(args or {})
    call = envelope.CallMeta(verbose=settings.current().verbose_meta)
    context.begin_call()
    try:
        tool, params, repo_path = prepare(name, args, default_repo, allowed)
        output = tool.handler(params, repo_path)
        _identity_notes(output, repo_path if tool.needs_repo else "")
        if (conn := context.read_from()) is not None and not settings.current().full_ids:
            naming.shorten_output(output, conn)
        if previews is not None:
            previews.extend(output.preview)
        _finish(call, started)
        measure = _saved_measure(repo_path)
        env = envelope.success(name, output, args, call, params.token_budget, measure if call.verbose else None)
        _account(name, env, repo_path, measure)
        return env, False
    except RoslynMapError as exc:
        _finish(call, started)
        if (conn := context.read_from()) is not None and not settings.current().full_ids:
            naming.shorten_error(exc, conn)
        return _failure(exc, call, args), False
    except OSError as exc:
        if exc.errno not in PATH_ERRNOS:
            return _internal(name, exc, call, started, args)
        # the OS refused a path the caller gave (too long, a loop): the caller's to fix, not a bug
        _finish(call, started)
        bad = RoslynMapError(ErrorCode.INVALID_ARGUMENT, f"A path could not be used: {exc.strerror}.",
                             "Pass shorter, repo-relative paths without symlink loops.")
        return _failure(bad, call, args), False
    except Exception as exc:  # a bug: reported as a result, never a traceback in the agent's context
        return _internal(name, exc, call, started, args)


def _finish(call: envelope.CallMeta, started: float) -> None:
    """meta.workspace_id / overlay_revision (and consistency) of a call answered in a workspace; timing."""
    call.workspace = context.answered_from()
    call.timing_ms["total"] = round((time.perf_counter() - started) * 1000, 2)


def _internal(name: str, exc: Exception, call: envelope.CallMeta, started: float,
              args: dict[str, Any]) -> tuple[Envelope, bool]:
    log.exception("tool %s failed", name)
    _finish(call, started)
    error = RoslynMapError(ErrorCode.INTERNAL, f"{type(exc).__name__}: {exc}"[:500],
                           "This is a roslynmap bug; the server log has the trace.")
    return _failure(error, call, args), True


def _failure(error: RoslynMapError, call: envelope.CallMeta, args: dict[str, Any]) -> Envelope:
    """The error envelope; if even that cannot be built, a minimal one (never a protocol error)."""
    try:
        return envelope.failure(error, call, inputs.budget_of(args))
    except Exception:  # the envelope is the last line: it must not raise
        log.exception("error envelope failed")
        return {"ok": False, "error": {"code": error.code.value, "message": str(error.message)[:500],
                                       "hint": str(error.hint)[:500], "retryable": False}, "meta": {}}


def _identity_notes(output: Any, repo_path: str) -> None:
    """Warnings about how the repository was identified (e.g. a bounded fingerprint walk)."""
    if not repo_path:
        return
    notes = getattr(repo_identity(repo_path), "notes", ())
    for note in notes:
        if note not in output.warnings:
            output.warnings.append(note)


def _saved_measure(repo_path: str) -> Callable[[Envelope], int] | None:
    """Measures the whole files an envelope points into (meta.tokens_saved), or None without a repo."""
    if not repo_path:
        return None
    try:
        root = repo_identity(repo_path).root
    except RoslynMapError:
        return None
    return lambda env: whole_file_tokens(env, root)


def _account(name: str, env: Envelope, repo_path: str, measure: Callable[[Envelope], int] | None) -> None:
    """Accumulates emitted and saved tokens per repository for `roslynmap stats` (whether or not meta shows them)."""
    if not repo_path or measure is None:
        return
    meta = env["meta"]
    if "token_budget" in meta and "tokens_saved" in meta:
        used, saved = meta["token_budget"]["used"], meta["tokens_saved"]["upper_bound"]
    else:
        used = envelope.estimate_tokens(env)
        saved = max(0, measure(env) - used)
    stats.record(repo_identity(repo_path).repo_id, name, int(used), int(saved))


def is_slow(name: str) -> bool:
    tool = TOOLS.get(name)
    return bool(tool and tool.slow)
