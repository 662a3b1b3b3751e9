"""Numbered source lines from the working tree: code_get_span and symbols_get_definition_span."""

from __future__ import annotations

import codecs
from dataclasses import dataclass
from pathlib import Path

from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.query.paths import readable_file


@dataclass
class Span:
    file: str
    start_line: int
    end_line: int
    total_lines: int
    lines: list[dict[str, object]]


def decoded(data: bytes) -> str:
    """A source file's text as Roslyn reads it: by its byte order mark (Visual Studio saves some XAML and C# files as
    UTF-16; read as UTF-8 they named nothing), else UTF-8."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16", errors="replace")
    return data.decode("utf-8-sig", errors="replace")


def read_lines(root: Path, rel_path: str, virtual: dict[str, str] | None = None) -> list[str]:
    """The file's lines from the working tree, or from `virtual` (ephemeral workspaces) when it has the path.
    Only a regular file whose real path is inside the repository is read (paths.readable_file)."""
    if virtual and rel_path in virtual:
        return virtual[rel_path].removeprefix("\ufeff").splitlines()
    path = readable_file(root, rel_path)
    try:
        return decoded(path.read_bytes()).splitlines()
    except FileNotFoundError as exc:
        raise RoslynMapError(
            ErrorCode.NOT_FOUND,
            f"'{rel_path}' does not exist in the working tree.",
            "It may have been deleted since indexing; call symbols_search to find where the code lives now.",
        ) from exc
    except OSError as exc:
        raise RoslynMapError(ErrorCode.INVALID_ARGUMENT, f"'{rel_path}' cannot be read: {exc.strerror or exc}.",
                             "Check the file's permissions.") from exc


def span(root: Path, rel_path: str, start_line: int, end_line: int | None, max_lines: int,
         virtual: dict[str, str] | None = None) -> Span:
    lines = read_lines(root, rel_path, virtual)
    total = len(lines)
    if start_line > max(total, 1):
        raise RoslynMapError(
            ErrorCode.INVALID_ARGUMENT,
            f"start_line {start_line} is past the end of '{rel_path}' ({total} lines).",
            f"Use start_line between 1 and {total}.",
        )
    last = min(end_line if end_line is not None else start_line + max_lines - 1, total)
    if last < start_line:
        raise RoslynMapError(
            ErrorCode.INVALID_ARGUMENT,
            f"end_line {end_line} is before start_line {start_line}.",
            "Pass end_line >= start_line, or leave it out.",
        )
    last = min(last, start_line + max_lines - 1)
    numbered: list[dict[str, object]] = [
        {"line": n, "text": lines[n - 1]} for n in range(start_line, last + 1)
    ]
    return Span(rel_path, start_line, last, total, numbered)


def declaration_start(lines: list[str], identifier_line: int) -> int:
    """Walk up over attributes and `///` doc comments that belong to the declaration."""
    start = identifier_line
    while start > 1:
        above = lines[start - 2].strip()
        if above.startswith(("///", "[")) and not above.startswith("[assembly:"):
            start -= 1
        else:
            break
    return start
