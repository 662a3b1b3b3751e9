"""DESIGN §9: one envelope for every tool, kept inside the token budget by construction.

Tools never truncate: they declare one ranked list and this module keeps the largest prefix that
fits (binary search over the serialized size), then elides snippets as a last resort.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import orjson

from roslynmap.mcp.output import RankedList, ToolOutput
from roslynmap.model.errors import RoslynMapError

SAVED_BASIS = "whole referenced files minus tokens emitted"
SAVED_PLACEHOLDER = 999_999_999  # widest value: fitting with it leaves room for the real number
DEFAULT_BUDGET = 3000
MIN_BUDGET, MAX_BUDGET = 100, 10000
CHARS_PER_TOKEN = 4


def estimate_tokens(payload: Any) -> int:
    return -(-len(orjson.dumps(payload)) // CHARS_PER_TOKEN)


def clamp_budget(requested: int | None) -> tuple[int, int]:
    """(requested as recorded, budget applied)."""
    asked = DEFAULT_BUDGET if requested is None else int(requested)
    return asked, max(MIN_BUDGET, min(MAX_BUDGET, asked))


def _overflow(ranked: RankedList, shown: int, args: dict[str, Any], tool: str) -> dict[str, Any]:
    next_offset = ranked.offset + shown
    steps: list[str] = []
    if ranked.narrow:
        steps.append("Narrow: " + ", ".join(ranked.narrow[:3]))
    if ranked.scope_param and ranked.by_file and not args.get(ranked.scope_param):
        top = ranked.by_file[0]
        steps.append(f"scope: {ranked.scope_param}=\"{top['file']}\" ({top['count']} there)")
    if ranked.page_tool and ranked.page_param:
        fixed = ", ".join(f"{k}={orjson.dumps(v).decode()}" for k, v in ranked.page_args.items())
        steps.append(f"page: {ranked.page_tool}({fixed}, {ranked.page_param}={next_offset + ranked.page_base})")
    elif ranked.page_param:
        steps.append(f"page: {ranked.page_param}={next_offset + ranked.page_base}")
    else:
        steps.append(f"raise token_budget={min(MAX_BUDGET, max(args_budget(args) * 2, DEFAULT_BUDGET))}")
    return {
        "shown": shown,
        "total": ranked.total,
        "by_file": ranked.by_file[:15],
        "next_offset": next_offset + ranked.page_base,
        "hint": f"Showing {shown} of {ranked.total} ({tool}). " + "; or ".join(steps),
    }


def args_budget(args: dict[str, Any]) -> int:
    try:
        return clamp_budget(int(args["token_budget"]))[1] if args.get("token_budget") is not None else DEFAULT_BUDGET
    except (TypeError, ValueError):
        return DEFAULT_BUDGET


def _elide(items: list[dict[str, Any]], keys: tuple[str, ...]) -> list[dict[str, Any]]:
    return [{k: v for k, v in item.items() if k not in keys} for item in items]


def success(
    tool: str, output: ToolOutput, args: dict[str, Any], meta: dict[str, Any], budget_requested: int | None,
    saved_of: Callable[[dict[str, Any]], int] | None = None,
) -> dict[str, Any]:
    """The fitted envelope. `saved_of(env)` measures meta.tokens_saved (the tokens of the whole files
    the kept data points into); it is fitted at its widest so filling it in never exceeds the budget."""
    asked, budget = clamp_budget(budget_requested)
    if asked != budget:
        meta.setdefault("limits_applied", {})["token_budget"] = {"requested": asked, "applied": budget}
    if output.limits_applied:
        meta.setdefault("limits_applied", {}).update(output.limits_applied)
    meta["semantic_level"] = output.semantic_level or meta.get("semantic_level")
    if output.baseline_commit:
        meta["baseline_commit"] = output.baseline_commit
    ranked = output.ranked

    def render(count: int, elide: bool) -> dict[str, Any]:
        data = dict(output.data)
        truncated = False
        overflow = None
        if ranked is not None:
            items = ranked.items[:count]
            data[ranked.key] = _elide(items, ranked.elidable) if elide else items
            truncated = ranked.offset + count < ranked.total
            if truncated:
                overflow = _overflow(ranked, count, args, tool)
        env: dict[str, Any] = {"ok": True, "answer": output.answer, "data": data, "truncated": truncated}
        if overflow:
            env["overflow"] = overflow
        if output.next_actions:
            env["next_actions"] = output.next_actions[:3]
        if output.warnings:
            env["warnings"] = output.warnings
        if output.guidance:
            env[output.guidance.severity] = output.guidance.text
        if elide:
            env.setdefault("warnings", []).append("Snippets and signatures elided to fit token_budget.")
        env["meta"] = {**meta, "token_budget": {"requested": asked, "used": 0, "max": MAX_BUDGET}}
        if saved_of is not None:
            env["meta"]["tokens_saved"] = {"upper_bound": SAVED_PLACEHOLDER, "basis": SAVED_BASIS}
        return env

    def fits(env: dict[str, Any]) -> bool:
        return estimate_tokens(env) + 4 <= budget  # headroom for the `used` digits

    count = len(ranked.items) if ranked else 0
    env = render(count, False)
    if not fits(env) and ranked is not None:
        env = _fit(render, count, False, fits) or _fit(render, count, True, fits) or render(0, True)
    if not fits(env):
        env = _shrink(env, budget)
    env["meta"]["token_budget"]["used"] = estimate_tokens(env)
    if saved_of is not None and "tokens_saved" in env["meta"]:
        whole = saved_of(env)
        env["meta"]["tokens_saved"]["upper_bound"] = max(0, whole - env["meta"]["token_budget"]["used"])
        env["meta"]["token_budget"]["used"] = estimate_tokens(env)
    return env


def _fit(render: Any, count: int, elide: bool, fits: Any) -> dict[str, Any] | None:
    """Largest prefix of the ranked list that fits; None when not even one item does."""
    low, high, best = 1, count, None
    while low <= high:
        mid = (low + high) // 2
        env = render(mid, elide)
        if fits(env):
            best, low = env, mid + 1
        else:
            high = mid - 1
    return best


def _shrink(env: dict[str, Any], budget: int) -> dict[str, Any]:
    """Last resort when even the smallest ranked prefix is too big: first drop optional meta, then
    cut long strings, then keep only what says what happened and how to get the answer."""
    out = copy.deepcopy(env)
    meta = out["meta"]
    for key in ("tokens_saved", "workspace_id", "overlay_revision", "timing_ms"):
        meta.pop(key, None)
    if meta.get("baseline_commit"):
        meta["baseline_commit"] = meta["baseline_commit"][:12]
    limit = 400
    while estimate_tokens(out) + 4 > budget and limit >= 20:
        out = _cut_strings(out, limit)
        if "data" in out:
            out["truncated"] = True
            out["warnings"] = [f"Text cut to fit token_budget={budget}; raise it for the full answer."]
        limit //= 2
    if estimate_tokens(out) + 4 > budget:
        for key in ("next_actions", "overflow", "hint", "warning", "must_follow"):
            out.pop(key, None)
        if "data" in out:
            out["data"] = {}
            out["answer"] = out["answer"][:60]
            out["truncated"] = True
            out["warnings"] = [f"Omitted: raise token_budget={budget}"]
        else:
            out["error"].pop("candidates", None)
    return out


def _cut_strings(value: Any, limit: int) -> Any:
    if isinstance(value, str):
        return value if len(value) <= limit else value[:limit] + "…"
    if isinstance(value, list):
        return [_cut_strings(v, limit) for v in value]
    if isinstance(value, dict):
        # The overflow hint and warnings are how the caller gets the rest: never cut them.
        return {k: (v if k in {"meta", "overflow", "warnings"} else _cut_strings(v, limit)) for k, v in value.items()}
    return value


def failure(error: RoslynMapError, meta: dict[str, Any], budget_requested: int | None) -> dict[str, Any]:
    asked, budget = clamp_budget(budget_requested)
    if asked != budget:
        meta.setdefault("limits_applied", {})["token_budget"] = {"requested": asked, "applied": budget}
    env: dict[str, Any] = {"ok": False, "error": error.to_dict(),
                           "meta": {**meta, "token_budget": {"requested": asked, "used": 0, "max": MAX_BUDGET}}}
    candidates = env["error"].get("candidates")
    while candidates and estimate_tokens(env) + 4 > budget:
        candidates.pop()
    if estimate_tokens(env) + 4 > budget:
        env = _shrink(env, budget)
    env["meta"]["token_budget"]["used"] = estimate_tokens(env)
    return env
