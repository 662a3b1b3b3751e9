"""Hint texts more than one layer spells (the CLI and the tools name the same choice differently)."""

from __future__ import annotations


def solution_hint(paths: list[str], cli: bool = False, more: bool = False) -> str:
    """`Pass one of them: solution_path="A.sln" or solution_path="B.sln".` (CLI: `--solution A.sln`)."""
    spelled = [f"--solution {p}" if cli else f"solution_path=\"{p}\"" for p in paths]
    listed = " or ".join(spelled) if len(spelled) <= 2 else ", ".join(spelled[:-1]) + f", or {spelled[-1]}"
    return f"Pass one of them: {listed}" + (" (more exist)." if more else ".")
