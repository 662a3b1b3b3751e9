"""Hint texts more than one layer spells (the CLI and the tools name the same choice differently)."""

from __future__ import annotations

import re
from collections.abc import Iterable


def solution_hint(paths: list[str], cli: bool = False, more: bool = False) -> str:
    """`Pass one of them: solution_path="A.sln" or solution_path="B.sln".` (CLI: `--solution A.sln`)."""
    spelled = [f"--solution {p}" if cli else f"solution_path=\"{p}\"" for p in paths]
    listed = " or ".join(spelled) if len(spelled) <= 2 else ", ".join(spelled[:-1]) + f", or {spelled[-1]}"
    return f"Pass one of them: {listed}" + (" (more exist)." if more else ".")


# The bridge's workspace diagnostic for a project MSBuildWorkspace loaded in another language (Avalonia.Samples' F#
# MusicStore): `Skipped non-C# project MusicStore (F#): /path/MusicStore.fsproj`.
_NON_CSHARP = re.compile(r"^Skipped non-C# project .+ \(([^()]+)\): ")


def non_csharp_language(load_errors: Iterable[str]) -> str | None:
    """The language of a project skipped for not being C# (`F#`, `Visual Basic`), None for any other."""
    return next((m.group(1) for e in load_errors if (m := _NON_CSHARP.match(e))), None)


def non_csharp_reason(language: str) -> str:
    return f"{language} project: not indexed (roslynmap indexes C# projects)"
