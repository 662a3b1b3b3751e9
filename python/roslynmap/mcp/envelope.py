"""DESIGN §9: one envelope for every tool, kept inside the token budget by construction.

Tools never truncate: they declare one ranked list and this module keeps the largest prefix that
fits (binary search over the serialized size), then elides snippets as a last resort. Results come
first: the prefix is measured without the summaries (next_actions, data `by_*` counts,
overflow.by_file), which are then added back one by one while they still fit.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

from roslynmap.mcp.output import RankedList, ToolOutput
from roslynmap.model.envelope import Envelope, Meta, Overflow
from roslynmap.model.errors import RoslynMapError

SAVED_BASIS = "whole referenced files minus tokens emitted"
SAVED_PLACEHOLDER = 999_999_999  # widest value: fitting with it leaves room for the real number
DEFAULT_BUDGET = 3000
MIN_BUDGET, MAX_BUDGET = 100, 10000
CHARS_PER_TOKEN = 4
HEADROOM = 4  # tokens kept free for the digits of meta.token_budget.used (verbose meta)
# The optional parts of an answer, in the order they are added back after the results. Without
# "narrowing", the overflow hint says only how to get the rest (page, or the budget it takes).
SUMMARIES = ("narrowing", "next_actions", "data_counts", "by_file")


def estimate_tokens(payload: Any) -> int:
    return -(-len(orjson.dumps(payload)) // CHARS_PER_TOKEN)


def clamp_budget(requested: int | None) -> tuple[int, int]:
    """(requested as recorded, budget applied)."""
    asked = DEFAULT_BUDGET if requested is None else int(requested)
    return asked, max(MIN_BUDGET, min(MAX_BUDGET, asked))


@dataclass
class CallMeta:
    """What dispatch knows about a call, rendered into `meta` lean or verbose (docs/tools.md)."""

    verbose: bool = False
    semantic_level: str | None = None
    baseline_commit: str | None = None
    workspace: dict[str, Any] | None = None  # workspace_id, overlay_revision, consistency
    limits_applied: dict[str, Any] = field(default_factory=dict)
    timing_ms: dict[str, float] = field(default_factory=dict)

    def render(self) -> Meta:
        meta: Meta = {}
        if self.verbose:
            meta["timing_ms"] = dict(self.timing_ms)
            meta["baseline_commit"] = self.baseline_commit
            meta["workspace_id"], meta["overlay_revision"] = None, 0
            meta["semantic_level"] = self.semantic_level
        # DESIGN §7: every answer says how complete the compile behind it was (7 tokens, even when full).
        if self.semantic_level:
            meta["semantic_level"] = self.semantic_level
        if self.workspace:
            meta["workspace_id"] = self.workspace.get("workspace_id")
            meta["overlay_revision"] = int(self.workspace.get("overlay_revision") or 0)
            # The default with a workspace_id goes unsaid in lean meta; committed and ephemeral are said.
            if self.workspace.get("consistency") and (self.verbose or self.workspace["consistency"] != "workspace"):
                meta["consistency"] = str(self.workspace["consistency"])
            if self.baseline_commit and not self.verbose:
                meta["baseline_commit"] = self.baseline_commit[:12]
        if self.limits_applied:
            meta["limits_applied"] = dict(self.limits_applied)
        return meta


def raise_to(current: int, needed: int) -> int | None:
    """The token_budget to suggest: above `current` (never the value given), None when nothing more is allowed."""
    if current >= MAX_BUDGET:
        return None
    step = 100 if needed < 1000 else 500
    return min(MAX_BUDGET, max(current + step, -(-needed // step) * step))


def _overflow(ranked: RankedList, shown: int, args: dict[str, Any], tool: str, budget: int,
              needed: int, narrowing: bool = True) -> Overflow:
    """`needed`: tokens the answer would take with one more item; what a `raise token_budget` step asks for.
    Without `narrowing` the hint names only the way to the rest (page, or the budget it takes)."""
    next_offset = ranked.offset + shown
    steps: list[str] = []
    if ranked.narrow and narrowing:
        steps.append("Narrow: " + ", ".join(ranked.narrow[:3]))
    if narrowing and ranked.scope_param and ranked.by_file and not args.get(ranked.scope_param):
        top = ranked.by_file[0]
        steps.append(f"scope: {ranked.scope_param}=\"{top['file']}\" ({top['count']} there)")
    more = raise_to(budget, needed)
    if shown == 0 or not ranked.page_param:  # paging from where nothing was shown would show nothing again
        if more is not None:
            steps.append(f"raise token_budget={more}")
    elif ranked.page_tool:
        fixed = ", ".join(f"{k}={orjson.dumps(v).decode()}" for k, v in ranked.page_args.items())
        steps.append(f"page: {ranked.page_tool}({fixed}, {ranked.page_param}={next_offset + ranked.page_base})")
    else:
        steps.append(f"page: {ranked.page_param}={next_offset + ranked.page_base}")
    if not steps:
        steps.append("narrow the question (filters, a smaller depth)")
    overflow: Overflow = {"shown": shown, "total": ranked.total, "by_file": ranked.by_file[:15]}
    if ranked.page_param:  # a list the tool cannot page (a graph's levels) offers no offset to pass back
        overflow["next_offset"] = next_offset + ranked.page_base
    overflow["hint"] = f"Showing {shown} of {ranked.total} ({tool}). " + "; or ".join(steps)
    return overflow


def _elide(items: list[dict[str, Any]], keys: tuple[str, ...]) -> list[dict[str, Any]]:
    return [{k: v for k, v in item.items() if k not in keys} for item in items]


def is_count(key: str) -> bool:
    """A `data` summary that counts the list (by_kind, by_method, by_status...), dropped before results."""
    return key.startswith("by_")


def success(
    tool: str, output: ToolOutput, args: dict[str, Any], call: CallMeta, budget_requested: int | None,
    saved_of: Callable[[Envelope], int] | None = None,
) -> Envelope:
    """The fitted envelope. With verbose meta, `saved_of(env)` measures meta.tokens_saved (the tokens of the
    whole files the kept data points into); it is fitted at its widest so filling it in never exceeds the budget."""
    asked, budget = clamp_budget(budget_requested)
    if asked != budget:
        call.limits_applied["token_budget"] = {"requested": asked, "applied": budget}
    call.limits_applied.update(output.limits_applied)
    call.semantic_level = output.semantic_level or call.semantic_level
    if output.baseline_commit:
        call.baseline_commit = output.baseline_commit
    meta = call.render()
    ranked = output.ranked
    everything = frozenset(SUMMARIES)

    def render(count: int, elide: bool, summaries: frozenset[str] = everything, needed: int = 0) -> Envelope:
        data = {k: v for k, v in output.data.items() if "data_counts" in summaries or not is_count(k)}
        truncated = False
        overflow: Overflow | None = None
        if ranked is not None:
            items = ranked.items[:count]
            data[ranked.key] = _elide(items, ranked.elidable) if elide else items
            truncated = ranked.offset + count < ranked.total
            if truncated:
                overflow = _overflow(ranked, count, args, tool, budget, needed, "narrowing" in summaries)
                if "by_file" not in summaries or not overflow["by_file"]:
                    del overflow["by_file"]
        env: Envelope = {"ok": True, "answer": output.answer, "data": data, "truncated": truncated}
        if overflow:
            env["overflow"] = overflow
        if output.next_actions and "next_actions" in summaries:
            env["next_actions"] = output.next_actions[:3]
        if output.warnings:
            env["warnings"] = list(output.warnings)
        _guide(env, output)
        if elide:
            env.setdefault("warnings", []).append("Snippets and signatures elided to fit token_budget.")
        env["meta"] = copy.copy(meta)
        if call.verbose:
            env["meta"]["token_budget"] = {"requested": asked, "used": 0, "max": MAX_BUDGET}
            if saved_of is not None:
                env["meta"]["tokens_saved"] = {"upper_bound": SAVED_PLACEHOLDER, "basis": SAVED_BASIS}
        return env

    def fits(env: Envelope) -> bool:
        return estimate_tokens(env) + HEADROOM <= budget

    count = len(ranked.items) if ranked else 0
    env = render(count, False)
    if not fits(env) and ranked is not None:
        env = _results_first(render, count, fits, budget)
    if not fits(env):
        env = _shrink(env, budget, estimate_tokens(env) + HEADROOM)
    if call.verbose:
        env["meta"]["token_budget"]["used"] = estimate_tokens(env)
        if saved_of is not None and "tokens_saved" in env["meta"]:
            whole = saved_of(env)
            env["meta"]["tokens_saved"]["upper_bound"] = max(0, whole - env["meta"]["token_budget"]["used"])
            env["meta"]["token_budget"]["used"] = estimate_tokens(env)
    return env


def _guide(env: Envelope, output: ToolOutput) -> None:
    if output.guidance is None:
        return
    if output.guidance.severity == "must_follow":
        env["must_follow"] = output.guidance.text
    elif output.guidance.severity == "warning":
        env["warning"] = output.guidance.text
    else:
        env["hint"] = output.guidance.text


Render = Callable[..., Envelope]


def _results_first(render: Render, count: int, fits: Callable[[Envelope], bool], budget: int) -> Envelope:
    """As many results as fit with no summaries (snippets elided only when not even one fits whole),
    then each summary that still fits. Nothing fits: the bare answer, asking for the budget one result needs."""
    bare: frozenset[str] = frozenset()
    shown, elide = 0, False
    for elide in (False, True):
        def prefix(n: int, e: bool = elide) -> Envelope:
            return render(n, e, bare)

        shown = _largest(prefix, count, fits)
        if shown:
            break
    if not shown:
        needed = estimate_tokens(render(1, True, bare)) + HEADROOM
        return render(0, True, bare, needed)
    kept: frozenset[str] = bare
    for part in SUMMARIES:
        if fits(render(shown, elide, kept | {part})):
            kept = kept | {part}
    needed = estimate_tokens(render(shown + 1, elide, kept)) + HEADROOM if shown < count else 0
    return render(shown, elide, kept, needed)


def _largest(render: Callable[[int], Envelope], count: int, fits: Callable[[Envelope], bool]) -> int:
    """The largest prefix length that fits (binary search); 0 when not even one item does."""
    low, high, best = 1, count, 0
    while low <= high:
        mid = (low + high) // 2
        if fits(render(mid)):
            best, low = mid, mid + 1
        else:
            high = mid - 1
    return best


def _shrink(env: Envelope, budget: int, needed: int) -> Envelope:
    """Last resort when even the smallest ranked prefix is too big: first drop optional meta, then
    cut long strings, then keep only what says what happened and how to get the answer."""
    out = copy.deepcopy(env)
    meta = out["meta"]
    for key in ("tokens_saved", "timing_ms"):
        meta.pop(key, None)  # type: ignore[misc]
    if meta.get("baseline_commit"):
        meta["baseline_commit"] = (meta["baseline_commit"] or "")[:12]
    more = raise_to(budget, needed)
    ask = f"raise token_budget={more}" if more is not None else "narrow the question"
    limit = 400
    while estimate_tokens(out) + HEADROOM > budget and limit >= 20:
        out = _cut_strings(out, limit)
        if "data" in out:
            out["truncated"] = True
            out["warnings"] = [f"Text cut to fit token_budget={budget}; {ask} for the full answer."]
        limit //= 2
    if estimate_tokens(out) + HEADROOM > budget and out.get("data"):
        # Then the biggest data fields, one by one: the answer and what is left still say what happened
        # (SimplCommerce's repo_status lost its answer to 49 projects' levels).
        dropped = []
        for key in sorted(out["data"], key=lambda k: -len(str(out["data"][k]))):
            if estimate_tokens(out) + HEADROOM <= budget:
                break
            out["data"].pop(key)
            dropped.append(key)
        out["truncated"] = True
        if any(out["data"].values()):  # something is still said beside the answer
            out["warnings"] = [f"Left out {', '.join(dropped)} to fit token_budget={budget}; {ask}."]
        else:
            out["data"] = {}
            out["warnings"] = [f"Omitted to fit token_budget={budget}: {ask}."]
    if estimate_tokens(out) + HEADROOM > budget:
        for key in ("next_actions", "overflow", "hint", "warning", "must_follow"):
            out.pop(key, None)  # type: ignore[misc]
        if "data" in out:
            out["data"] = {}
            out["answer"] = out["answer"][:60]
            out["truncated"] = True
            out["warnings"] = [f"Omitted to fit token_budget={budget}: {ask}."]
        else:
            out["error"].pop("candidates", None)
    return out


def _cut_strings(value: Any, limit: int) -> Any:
    if isinstance(value, str):
        return value if len(value) <= limit else value[:limit] + "…"
    if isinstance(value, list):
        return [_cut_strings(v, limit) for v in value]
    if isinstance(value, dict):
        # The answer is what the call is for; the overflow hint and warnings are how the caller gets the rest:
        # never cut them.
        return {k: (v if k in {"answer", "meta", "overflow", "warnings"} else _cut_strings(v, limit))
                for k, v in value.items()}
    return value


def failure(error: RoslynMapError, call: CallMeta, budget_requested: int | None) -> Envelope:
    asked, budget = clamp_budget(budget_requested)
    if asked != budget:
        call.limits_applied["token_budget"] = {"requested": asked, "applied": budget}
    env: Envelope = {"ok": False, "error": error.to_dict(), "meta": call.render()}
    if call.verbose:
        env["meta"]["token_budget"] = {"requested": asked, "used": 0, "max": MAX_BUDGET}
    candidates = env["error"].get("candidates")
    while candidates and estimate_tokens(env) + HEADROOM > budget:
        candidates.pop()
    if estimate_tokens(env) + HEADROOM > budget:
        env = _shrink(env, budget, estimate_tokens(env) + HEADROOM)
    if call.verbose:
        env["meta"]["token_budget"]["used"] = estimate_tokens(env)
    return env
