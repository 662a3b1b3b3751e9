"""User-supplied paths made repo-relative and checked to stay inside the repository (DESIGN §11).

A path must not leave the repository; a path about to be read must also pass model/readable.py
(real path inside, not .git/). Filters (a `file_path` prefix) only need the first rule.
"""

from __future__ import annotations

from pathlib import Path

from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.model.readable import is_readable, is_vcs_internal, outside, readable_file, unusable, vcs_refusal

__all__ = ["is_readable", "readable_file", "repo_relative"]


def repo_relative(root: Path, path: str, *, must_exist: bool = False) -> str:
    """`./src\\A.cs`, `/abs/repo/src/A.cs` and `src/A.cs` all become `src/A.cs`; escapes are refused.
    With must_exist the path is about to be read: it must be a readable file (see `readable_file`)."""
    text = path.strip().replace("\\", "/")
    try:
        candidate = Path(text) if Path(text).is_absolute() else root / text
        resolved = candidate.resolve()
    except (OSError, ValueError, RuntimeError) as exc:  # NUL, ENAMETOOLONG, a symlink loop
        raise unusable(path, exc) from exc
    if resolved != root and root not in resolved.parents:
        raise outside(path, root)
    rel = resolved.relative_to(root).as_posix()
    if must_exist:
        if is_vcs_internal(rel) or is_vcs_internal(text):
            raise vcs_refusal(path)
        try:
            exists = resolved.is_file()
        except OSError as exc:
            raise unusable(path, exc) from exc
        if not exists:
            raise RoslynMapError(
                ErrorCode.NOT_FOUND,
                f"No file '{path[:300]}' in the repository.",
                "Find files with symbols_search(file_path=\"src/\") or check the spelling and case.",
            )
    return "" if rel == "." else rel + ("/" if text.endswith("/") and rel else "")
