"""Razor Pages (`.cshtml` with `@page`) and routable Blazor components (`.razor` with `@page`), as facts.

The Razor generator's output is not indexed (it is not a document of the project), so routes are
read from the markup beside the compile, like appsettings files: kind `RazorPage` (key: the page's
route; detail: its `@model` type, area) and `RazorComponent` (key: the `@page` template; detail:
the component name). The query layer joins them with the indexed PageModel's OnGet/OnPost{Handler}
methods and the component's code-behind class.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from roslynmap.model.readable import is_readable
from roslynmap.model.records import FactRecord

SKIP = {"bin", "obj", ".git", "node_modules"}
_PAGE = re.compile(r'^\s*@page(?:\s+"(?P<template>[^"]*)")?\s*$')
_MODEL = re.compile(r"^\s*@model\s+(?P<type>[\w.<>]+)")
_INJECT = re.compile(r"^\s*@inject\s+(?P<type>[\w.<>, ]+?)\s+(?P<name>\w+)\s*$")


def _files(root: Path, suffix: str) -> Iterator[Path]:
    for path in sorted(root.rglob(f"*{suffix}")):
        rel = path.relative_to(root)
        if not SKIP.intersection(rel.parts) and not path.name.startswith("_") and is_readable(root, rel.as_posix()):
            yield path


def page_route(rel: str, template: str | None) -> tuple[str, str | None]:
    """The route of a Razor Page from its path under `Pages/` (or `Areas/{area}/Pages/`), `Index`
    dropped, then its `@page` template: appended, or the whole route when it starts with `/`."""
    parts = rel[: -len(".cshtml")].split("/")
    area = None
    if "Pages" in parts:
        at = len(parts) - 1 - parts[::-1].index("Pages")
        if at >= 2 and parts[at - 2] == "Areas":
            area = parts[at - 1]
        parts = ([area] if area else []) + parts[at + 1:]
    if parts and parts[-1] == "Index":
        parts = parts[:-1]
    base = "/" + "/".join(parts)
    if template:
        if template.startswith("/"):
            return "/" + template.strip("/"), area
        base = base.rstrip("/") + "/" + template.strip("/")
    return ("/" + base.strip("/")), area


def _directives(text: str) -> Iterator[tuple[int, str]]:
    """(line, text) of every line that starts with a directive (`@page`, `@model`, `@inject`)."""
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("@"):
            yield number, line


def razor_facts(root: Path) -> list[FactRecord]:
    """Fact records of Razor Pages and routable components, as the bridge's."""
    rows: list[FactRecord] = []
    for path in _files(root, ".cshtml"):
        rel = path.relative_to(root).as_posix()
        text = path.read_text(encoding="utf-8-sig", errors="replace")
        page: tuple[int, str | None] | None = None
        model = None
        for number, line in _directives(text):
            if (m := _PAGE.match(line)) and page is None:
                page = (number, m.group("template"))
            elif m := _MODEL.match(line):
                model = m.group("type")
        if page is None:
            continue
        route, area = page_route(rel, page[1])
        page_detail = {k: v for k, v in (("model", model), ("area", area)) if v}
        rows.append(FactRecord("RazorPage", None, None, rel, page[0], 1, "high", route, json.dumps(page_detail)))
    for path in _files(root, ".razor"):
        rel = path.relative_to(root).as_posix()
        text = path.read_text(encoding="utf-8-sig", errors="replace")
        injects = [m.group("type").strip() for _, line in _directives(text) if (m := _INJECT.match(line))]
        for number, line in _directives(text):
            if (m := _PAGE.match(line)) and m.group("template") is not None:
                detail: dict[str, Any] = {"component": path.stem}
                if injects:
                    detail["injects"] = injects
                rows.append(FactRecord("RazorComponent", None, None, rel, number, 1, "high",
                                       "/" + m.group("template").strip("/"), json.dumps(detail)))
    return rows
