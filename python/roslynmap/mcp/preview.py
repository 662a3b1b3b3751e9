"""The human view next to the structured result: the answer and the first few items."""

from __future__ import annotations

from typing import Any

PREVIEW_ITEMS = 6


def render(env: dict[str, Any], preview: list[str] | None = None) -> str:
    if not env.get("ok"):
        err = env["error"]
        return f"ERROR {err['code']}: {err['message']}\nhint: {err['hint']}"
    lines = [env["answer"]]
    items = preview or []
    lines.extend(f"  {item}" for item in items[:PREVIEW_ITEMS])
    overflow = env.get("overflow")
    shown_total = overflow["total"] if overflow else len(items)
    if shown_total > min(len(items), PREVIEW_ITEMS):
        lines.append(f"  … +{shown_total - min(len(items), PREVIEW_ITEMS)} more")
    for key in ("must_follow", "warning", "hint"):
        if key in env:
            lines.append(f"{key}: {env[key]}")
    return "\n".join(lines)
