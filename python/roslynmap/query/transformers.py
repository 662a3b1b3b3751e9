"""Route parameter transformers (RouteTransformer facts, dotnet/.../Facts/RouteTransformerFacts.cs).

eShopOnWeb registers `RouteTokenTransformerConvention(new SlugifyParameterTransformer())`: its
`[Route("[controller]/[action]")]` serves `/order/my-orders`, not `/Order/MyOrders`; and `{controller:slugify}`
in a conventional pattern runs the transformer `ConstraintMap["slugify"]` names. A transformer applies to the
routes of the app that registers it and of the projects it references (its application parts). When its
`TransformOutbound` shows what it does (a constant `Regex.Replace`, a `ToLower`), the route is rewritten;
otherwise it is listed as written and says `transformed_by` without guessing.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass

import orjson

from roslynmap.query import projectrefs

TOKEN = "token"  # RouteTokenTransformerConvention: attribute route tokens
CONSTRAINT = "constraint:"  # ConstraintMap["name"]: `{controller:name}` in a pattern


@dataclass(frozen=True)
class Transformer:
    type_id: str | None
    readable: bool
    pattern: str | None = None
    replacement: str | None = None
    lower: bool = False

    def apply(self, value: str) -> str | None:
        """The value as the transformer writes it; None when its code does not say."""
        if not self.readable:
            return None
        out = value
        if self.pattern is not None:
            # .NET's `$1` is Python's `\g<1>`; `$$`, `${name}`, `$&` and a pattern Python cannot read: not guessed.
            if re.search(r"\$(?!\d)", self.replacement or ""):
                return None
            replacement = re.sub(r"\$(\d+)", r"\\g<\1>", (self.replacement or "").replace("\\", "\\\\"))
            try:
                out = re.sub(self.pattern, replacement, out)
            except (re.error, IndexError):
                return None
        return out.lower() if self.lower else out


class Transformers:
    """The transformers registered in the solution, by the projects whose routes they rewrite."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._by_project: dict[int, dict[str, Transformer]] = {}
        rows = conn.execute("SELECT fa.project_id, fa.key, fa.detail FROM facts fa WHERE fa.kind = 'RouteTransformer'"
                            " ORDER BY fa.project_id, fa.line").fetchall()
        self._project_of: dict[str, int] = {}
        if not rows:
            return
        self._project_of = dict(conn.execute("SELECT path, project_id FROM files").fetchall())
        edges = projectrefs.project_references(conn)
        for project, key, detail in rows:
            d = orjson.loads(detail) if detail else {}
            found = Transformer(d.get("type"), bool(d.get("readable")), d.get("pattern"), d.get("replacement"),
                                bool(d.get("lower")))
            for scope in {int(project), *projectrefs.referenced(edges, [int(project)])}:
                self._by_project.setdefault(scope, {}).setdefault(str(key), found)

    def __bool__(self) -> bool:
        return bool(self._by_project)

    def of(self, path: str | None, key: str) -> Transformer | None:
        """The transformer `key` names for a route declared in this file."""
        if not self._by_project or path is None or (project := self._project_of.get(path)) is None:
            return None
        return self._by_project.get(project, {}).get(key)


_TOKEN = re.compile(r"\[(controller|action|area)\]", re.IGNORECASE)


def tokens_transformed(template: str, values: dict[str, str | None], transformer: Transformer) -> str | None:
    """An attribute route's template with its `[controller]`/`[action]`/`[area]` tokens replaced by the
    transformed values (None when the transformer's code does not say what it does)."""
    failed = False

    def value(match: re.Match[str]) -> str:
        nonlocal failed
        raw = values.get(match.group(1).lower()) or ""
        done = transformer.apply(raw)
        failed = failed or done is None
        return done or raw

    out = _TOKEN.sub(value, template)
    return None if failed else out


def constraints(parameter: str) -> list[str]:
    """`{controller:slugify=Home}` -> ["slugify"]; `{id:int?}` -> ["int"]."""
    inner = parameter.strip("{}").split("=", 1)[0].rstrip("?")
    return [c.split("(", 1)[0] for c in inner.split(":")[1:]]


def conventional_value(pattern_file: str | None, parameter: str, value: str,
                       found: Transformers) -> tuple[str, str | None]:
    """A conventional pattern's `{controller:slugify}` filled with `value` as its transformer writes it: (the value,
    the transformer's type id when one applies)."""
    for name in constraints(parameter):
        transformer = found.of(pattern_file, CONSTRAINT + name)
        if transformer is not None:
            done = transformer.apply(value)
            return (done if done is not None else value), transformer.type_id
    return value, None
