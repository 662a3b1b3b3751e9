"""The MCP text content: the whole envelope, rendered compactly (DESIGN §9).

Some clients give the model only the text content, others only structuredContent, so the text says
everything the envelope says, within the same token budget: lists of records become tables (the
keys once, then one line per record), so the text is smaller than the JSON it renders. Nothing is
previewed or left out; if the text should ever exceed the budget it is cut with a note.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson

from roslynmap.mcp.envelope import CHARS_PER_TOKEN, clamp_budget
from roslynmap.model.envelope import Envelope

SEP = " | "


def render(env: Envelope, budget: int | None = None) -> str:
    """`budget`: the call's token_budget (the text stays inside it like the envelope does)."""
    if not env.get("ok"):
        lines = _error(env)
    else:
        lines = [env.get("answer", "")]
        for key, value in (env.get("data") or {}).items():
            lines.extend(_field(key, value))
        lines.extend(_after(env))
    meta = env.get("meta") or {}
    if meta:
        lines.append("meta: " + " ".join(f"{k}={_cell(v)}" for k, v in meta.items()))
    return _within("\n".join(lines), clamp_budget(budget)[1])


def _error(env: Envelope) -> list[str]:
    err = env.get("error") or {}
    lines = [f"ERROR {err.get('code')}: {err.get('message')}", f"hint: {err.get('hint')}"]
    if err.get("retryable"):
        lines.append("retryable: true")
    lines.extend(_field("candidates", err.get("candidates")))
    return lines


def _after(env: Envelope) -> list[str]:
    lines: list[str] = []
    overflow = env.get("overflow")
    if overflow:
        lines.append(f"truncated: {overflow.get('hint', '')}")
        if overflow.get("by_file"):
            lines.append("by_file: " + ", ".join(f"{f['file']} ({f['count']})" for f in overflow["by_file"]))
    elif env.get("truncated"):
        lines.append("truncated: true")
    for action in env.get("next_actions") or []:
        args = ", ".join(f"{k}={orjson.dumps(v).decode()}" for k, v in (action.get("args") or {}).items())
        lines.append(f"next: {action.get('tool')}({args})" + (f"  # {action['why']}" if action.get("why") else ""))
    for warning in env.get("warnings") or []:
        lines.append(f"warning: {warning}")
    if "must_follow" in env:
        lines.append(f"must_follow: {env['must_follow']}")
    if "warning" in env:
        lines.append(f"warning: {env['warning']}")
    if "hint" in env:
        lines.append(f"hint: {env['hint']}")
    return lines


def _field(key: str, value: Any) -> list[str]:
    if value is None or value == [] or value == {}:
        return []
    if isinstance(value, list) and all(isinstance(v, Mapping) for v in value):
        return _table(key, value)
    if isinstance(value, Mapping) and any(isinstance(v, (list, Mapping)) for v in value.values()):
        lines = [f"{key}:"]
        for sub, inner in value.items():
            lines.extend("  " + line for line in _field(sub, inner))
        return lines
    return [f"{key}: {_cell(value)}"]


def _table(key: str, rows: list[Any]) -> list[str]:
    """`key (n): a | b | c` then one line per row; a key a row lacks is an empty cell."""
    columns: dict[str, None] = {}
    for row in rows:
        columns.update(dict.fromkeys(row))
    lines = [f"{key} ({len(rows)}): " + SEP.join(columns)]
    lines.extend("  " + SEP.join(_cell(row.get(c)) for c in columns) for row in rows)
    return lines


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value.replace("\n", "\\n")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    return orjson.dumps(value).decode()


def _within(text: str, budget: int) -> str:
    limit = budget * CHARS_PER_TOKEN
    if len(text.encode()) <= limit:
        return text
    note = "\n… (text cut to fit token_budget; structuredContent has the whole answer)"
    cut = text.encode()[: limit - len(note.encode())].decode(errors="ignore")
    return cut[: cut.rfind("\n")] + note if "\n" in cut else cut + note
