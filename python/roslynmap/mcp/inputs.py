"""Raw tool arguments checked before any model or handler sees them (DESIGN §11: bad input is an
INVALID_ARGUMENT envelope, never a protocol error or INTERNAL).

JSON lets a client send numbers no tool can use (1e999 parses to infinity, 2**64 overflows SQLite and
orjson), NUL bytes that the OS refuses in paths, and strings of any length. They are refused here, by
field name, with a hint, so the envelope itself (which echoes token_budget) can always be built.
"""

from __future__ import annotations

import math
from typing import Any

from roslynmap.model.errors import ErrorCode, RoslynMapError

MAX_INT = 2**31 - 1  # no argument (lines, offsets, budgets, depths) is legitimately larger
MAX_STRING = 4096  # PATH_MAX on Linux; queries and ids are far shorter
MAX_ITEMS = 10_000
MAX_DEPTH = 4
# virtual_files values are file contents, stack_trace a pasted trace: any text, up to this size.
MAX_CONTENT = 8 * 1024 * 1024
CONTENT_FIELDS = {"virtual_files", "stack_trace"}  # pasted text, not a path or a name
EXAMPLES = {"token_budget": 3000, "limit": 20, "offset": 0, "depth": 2, "limit_per_level": 50,
            "start_line": 1, "end_line": 40, "max_lines": 120, "line": 12, "col": 5, "keep": 3}


def _invalid(field: str, problem: str, hint: str) -> RoslynMapError:
    return RoslynMapError(ErrorCode.INVALID_ARGUMENT, f"{field}: {problem}.", hint)


def _number_hint(field: str) -> str:
    leaf = field.split(".")[-1]
    example = EXAMPLES.get(leaf, 10)
    return (f"Pass a whole number between 0 and {MAX_INT}, e.g. {leaf}={example} "
            "(values above a tool's maximum are clamped and reported in meta.limits_applied).")


def check_number(field: str, value: int | float) -> None:
    if isinstance(value, bool):
        return
    if isinstance(value, float) and not math.isfinite(value):
        raise _invalid(field, f"{value} is not a finite number", _number_hint(field))
    if abs(value) > MAX_INT:
        shown = f"{value:.3g}" if isinstance(value, float) else (str(value) if value < 10**20 else f"{value:.3e}")
        raise _invalid(field, f"{shown} is out of range (|value| ≤ {MAX_INT})", _number_hint(field))


def check_string(field: str, value: str, content: bool = False) -> None:
    if content:
        if len(value) > MAX_CONTENT:
            raise _invalid(field, f"{len(value)} characters is over the {MAX_CONTENT} limit for file contents",
                           "Pass only the files you changed.")
        return
    if "\x00" in value:
        raise _invalid(field, "contains a NUL character (\\u0000)",
                       "Remove it: paths, names, ids and queries never contain NUL.")
    if len(value) > MAX_STRING:
        raise _invalid(field, f"{len(value)} characters is over the {MAX_STRING}-character limit",
                       "Shorten it: paths are repo-relative (e.g. \"src/App/Program.cs\"), queries a few words.")


def check_value(field: str, value: Any, depth: int = 0, content: bool = False) -> None:
    """Raises INVALID_ARGUMENT for the first unusable value under `field`."""
    if isinstance(value, str):
        check_string(field, value, content)
    elif isinstance(value, (int, float)):
        check_number(field, value)
    elif isinstance(value, (list, dict)):
        if depth >= MAX_DEPTH:
            raise _invalid(field, "is nested too deeply", "Tool arguments are flat: strings, numbers, lists, "
                           "and virtual_files {path: content}.")
        if len(value) > MAX_ITEMS:
            raise _invalid(field, f"has {len(value)} items (limit {MAX_ITEMS})", "Pass fewer items per call.")
        if isinstance(value, dict):
            for key, item in value.items():
                check_string(f"{field} key", str(key))
                check_value(f"{field}.{key}"[:80], item, depth + 1, content)
        else:
            for index, item in enumerate(value):
                check_value(f"{field}[{index}]", item, depth + 1, content)


def check_arguments(args: dict[str, Any]) -> None:
    for name, value in args.items():
        check_string("argument name", str(name))
        check_value(str(name), value, content=name in CONTENT_FIELDS)


def budget_of(args: dict[str, Any]) -> int | None:
    """token_budget as the envelope records it; None when missing or unusable (never raises)."""
    value = args.get("token_budget")
    if isinstance(value, bool):
        return None
    try:
        number = int(value) if isinstance(value, (int, float, str)) else None
    except (TypeError, ValueError, OverflowError):
        return None
    return number if number is not None and abs(number) <= MAX_INT else None
