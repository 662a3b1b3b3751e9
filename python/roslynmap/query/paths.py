"""User-supplied paths made repo-relative and checked to stay inside the repository."""

from __future__ import annotations

from pathlib import Path

from roslynmap.model.errors import ErrorCode, RoslynMapError


def repo_relative(root: Path, path: str, *, must_exist: bool = False) -> str:
    """`./src\\A.cs`, `/abs/repo/src/A.cs` and `src/A.cs` all become `src/A.cs`; escapes are refused."""
    text = path.strip().replace("\\", "/")
    candidate = Path(text) if Path(text).is_absolute() else root / text
    resolved = candidate.resolve()
    if resolved != root and root not in resolved.parents:
        raise RoslynMapError(
            ErrorCode.PATH_OUTSIDE_REPO,
            f"'{path}' is outside the repository {root}.",
            "Use a path relative to the repository root, e.g. file_path=\"src/Api/OrdersController.cs\".",
        )
    if must_exist and not resolved.is_file():
        raise RoslynMapError(
            ErrorCode.NOT_FOUND,
            f"No file '{path}' in the repository.",
            "Find files with symbols_search(file_path=\"src/\") or check the spelling and case.",
        )
    rel = resolved.relative_to(root).as_posix()
    return "" if rel == "." else rel + ("/" if text.endswith("/") and rel else "")
