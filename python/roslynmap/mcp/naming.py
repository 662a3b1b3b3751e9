"""Short symbol ids in answers (query/shortids.py): applied once to what a handler returns, before the
envelope is fitted, so the budget is spent on results rather than namespaces. ROSLYNMAP_IDS=full keeps
full ids. Ids are replaced where they are values (symbol_id, from, to, via, handler, candidates...) and
inside guidance text; never inside source text (excerpts, signatures, docs)."""

from __future__ import annotations

import sqlite3
from typing import Any

from roslynmap.mcp.output import Guidance, ToolOutput
from roslynmap.model.errors import RoslynMapError
from roslynmap.model.ids import is_doc_id
from roslynmap.query import shortids

SOURCE_TEXT = frozenset({"excerpt", "text", "signature", "doc", "template", "snippet", "fqn", "key"})
GUIDANCE_TEXT = frozenset({"why"})  # a next action's reason may name the id its args pass


def _walk(value: Any, short: dict[str, str], key: str | None = None) -> Any:
    if isinstance(value, str):
        if key in GUIDANCE_TEXT:
            return shortids.shorten_text(value, short)
        return shortids.shorten(value, short) if key not in SOURCE_TEXT and is_doc_id(value) else value
    if isinstance(value, list):
        return [_walk(v, short, key) for v in value]
    if isinstance(value, dict):
        return {k: _walk(v, short, k) for k, v in value.items()}
    return value


def shorten_output(output: ToolOutput, conn: sqlite3.Connection) -> None:
    short = shortids.table(conn)
    if not short:
        return
    output.answer = shortids.shorten_names(shortids.shorten_text(output.answer, short), short)
    output.data = _walk(output.data, short)
    if output.ranked is not None:
        output.ranked.items = _walk(output.ranked.items, short)
        output.ranked.narrow = [shortids.shorten_text(n, short) for n in output.ranked.narrow]
        output.ranked.page_args = _walk(output.ranked.page_args, short)
    output.next_actions = _walk(output.next_actions, short)
    output.warnings = [shortids.shorten_text(w, short) for w in output.warnings]
    if output.guidance is not None:
        output.guidance = Guidance(output.guidance.severity, shortids.shorten_text(output.guidance.text, short))


def shorten_error(error: RoslynMapError, conn: sqlite3.Connection) -> None:
    short = shortids.table(conn)
    if short and error.candidates:
        error.candidates = _walk(error.candidates, short)
    if short:
        error.hint = shortids.shorten_text(error.hint, short)
