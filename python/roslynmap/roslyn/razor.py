"""Razor Pages (`.cshtml` with `@page`) and routable Blazor components (`.razor` with `@page`), as facts.

The Razor generator's output is not indexed (it is not a document of the project), so routes are
read from the markup beside the compile, like appsettings files: kind `RazorPage` (key: the page's
route; detail: its `@model` type, area) and `RazorComponent` (key: the `@page` template; detail:
the component name). The query layer joins them with the indexed PageModel's OnGet/OnPost{Handler}
methods and the component's code-behind class.

The markup's references to code are facts too, since the generated code that holds them is not indexed
(refs_find merges them): `RazorInject` for `@inject Type Name` (key: the type as written, in every
.cshtml and .razor, `_ViewImports`/`_Layout` included) and `RazorLink` for tag-helper links (key: the
`asp-page` page name as written, or `Controller/Action` from `asp-controller`/`asp-action`; detail: `asp-area`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from roslynmap.model.readable import repository_files
from roslynmap.model.records import FactRecord

_PAGE = re.compile(r'^\s*@page(?:\s+"(?P<template>[^"]*)")?\s*$')
_MODEL = re.compile(r"^\s*@model\s+(?P<type>[\w.<>]+)")
_INJECT = re.compile(r"^\s*@inject\s+(?P<type>[\w.<>, ]+?)\s+(?P<name>\w+)\s*;?\s*$")
_TAG = re.compile(r"<[A-Za-z][\w.-]*\s[^<>]*?\basp-(?:page|action|controller)\s*=[^<>]*>", re.S)
_ATTR = re.compile(r"\basp-(?P<name>page|action|controller|area)\s*=\s*\"(?P<value>[^\"@]*)\"")


def _files(root: Path, suffix: str, partials: bool = False) -> Iterator[Path]:
    """Markup files; `_ViewImports`, `_Layout` and other partials only when asked (they are no pages)."""
    for path in repository_files(root, [f"*{suffix}"]):
        if partials or not path.name.startswith("_"):
            yield path


def _controller_of(rel: str) -> str | None:
    """`Views/{Controller}/x.cshtml`: an asp-action without asp-controller links into that controller."""
    parts = rel.split("/")
    return parts[-2] if len(parts) >= 3 and parts[-3] == "Views" and parts[-2] != "Shared" else None


def reference_facts(root: Path) -> list[FactRecord]:
    """@inject uses and tag-helper links of every .cshtml and .razor file, as facts."""
    rows: list[FactRecord] = []
    for path in [*_files(root, ".cshtml", partials=True), *_files(root, ".razor", partials=True)]:
        rel = path.relative_to(root).as_posix()
        text = path.read_text(encoding="utf-8-sig", errors="replace")
        for number, line in _directives(text):
            if m := _INJECT.match(line):
                col = line.index(m.group("type")) + 1
                rows.append(FactRecord("RazorInject", None, None, rel, number, col, "high", m.group("type").strip(),
                                        json.dumps({"name": m.group("name")})))
        for tag in _TAG.finditer(text):
            attrs = {m.group("name"): m.group("value") for m in _ATTR.finditer(tag.group(0))}
            number = text.count("\n", 0, tag.start()) + 1
            col = tag.start() - (text.rfind("\n", 0, tag.start()) + 1) + 1
            if attrs.get("page"):
                key, detail = attrs["page"], {"page": attrs["page"]}
            elif attrs.get("action") is not None or attrs.get("controller"):
                controller = attrs.get("controller") or _controller_of(rel)
                action = attrs.get("action") or "Index"
                if not controller:
                    continue
                key, detail = f"{controller}/{action}", {"controller": controller, "action": action}
            else:
                continue
            if "area" in attrs:  # `asp-area=""` too: the link leaves its page's area for the root
                detail["area"] = attrs["area"]
            rows.append(FactRecord("RazorLink", None, None, rel, number, col, "high", key, json.dumps(detail)))
    return rows


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
