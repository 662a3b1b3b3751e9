"""What Razor markup (.cshtml, .razor) names: its C# is compiled by the Razor generator, whose output is not
indexed, so a member used only in markup (`@Model.BasketModel.Total()`, eShopOnWeb's Basket page) has no
reference. symbols_unused leaves such names out (`markup`), and refs_find and graph_callers say where markup
names a member, rather than answering a confident 0.

A member counts as named where markup accesses it (`.Total`, `@Total`), calls it (`Total(`) or gives it as an
attribute's value (`OnSaveClick="Reload"`, `asp-for="Input.Email"`); a type wherever its name appears
(`@model BasketViewModel`, `<CartItem />`). Names, not bindings: another member of the same name counts too,
which is why this excludes and warns but never adds references.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from roslynmap.model.errors import RoslynMapError
from roslynmap.model.kinds import TYPE_KINDS
from roslynmap.model.readable import in_project_folders, repository_files
from roslynmap.query.code import read_lines
from roslynmap.query.sql import memo

MARKUP_FILES = ("*.cshtml", "*.razor")
# `.Name`, `@Name`, `Name(`, and an attribute's value that starts with a name: a component parameter given a method
# group (`OnSaveClick="ReloadCatalogItems"`, eShopOnWeb's BlazorAdmin) or a tag helper's model path
# (`asp-for="Input.Email"`).
_MEMBER = re.compile(r"[.@]\s*([A-Za-z_]\w*)|([A-Za-z_]\w*)\s*\(|=\s*\"\s*([A-Za-z_]\w*)")
_WORD = re.compile(r"[A-Za-z_]\w*")


@dataclass
class MarkupNames:
    members: set[str] = field(default_factory=set)  # accessed or called
    words: set[str] = field(default_factory=set)  # every identifier (type names)

    def names(self, name: str, kind: str) -> bool:
        return name in (self.words if kind in TYPE_KINDS else self.members)


def _texts(conn: sqlite3.Connection, root: Path) -> list[tuple[str, str]]:
    """The markup files' texts, read once per open baseline (the server keeps its connection: a hint, not worth
    walking the tree on every call)."""
    return list(memo(conn, f"markup_texts:{root}", lambda: _read_texts(conn, root)))


def _read_texts(conn: sqlite3.Connection, root: Path) -> list[tuple[str, str]]:
    """The markup of the solution's projects (files in their folders: an app beside the solution is not its)."""
    projects = [str(r[0]) for r in conn.execute("SELECT path FROM projects WHERE path IS NOT NULL")] or None
    out = []
    for path in repository_files(root, MARKUP_FILES):
        rel = path.relative_to(root).as_posix()
        if not in_project_folders(rel, projects):
            continue
        try:
            out.append((rel, "\n".join(read_lines(root, rel))))
        except RoslynMapError:  # deleted since, or unreadable: not markup we can speak for
            continue
    return out


def names(conn: sqlite3.Connection, root: Path) -> MarkupNames:
    """Every name the repository's markup accesses, calls or spells."""
    found = MarkupNames()
    for _, text in _texts(conn, root):
        found.words.update(_WORD.findall(text))
        found.members.update(a or b or c for a, b, c in _MEMBER.findall(text))
    return found


def mentions(conn: sqlite3.Connection, root: Path, name: str, kind: str, limit: int = 3) -> tuple[int, list[str]]:
    """How many markup lines name `name` (as a member, or a type for a type kind), and the first `file:line`s."""
    escaped = re.escape(name)
    pattern = re.compile(rf"(?<!\w){escaped}(?!\w)" if kind in TYPE_KINDS
                         else rf"[.@]\s*{escaped}(?!\w)|(?<![\w.]){escaped}\s*\(|=\s*\"\s*{escaped}(?!\w)")
    count, places = 0, list[str]()
    for rel, text in _texts(conn, root):
        for number, line in enumerate(text.splitlines(), start=1):
            if pattern.search(line):
                count += 1
                if len(places) < limit:
                    places.append(f"{rel}:{number}")
    return count, places


def warning(conn: sqlite3.Connection, root: Path, name: str, kind: str) -> str | None:
    """The warning refs_find and graph_callers add when markup names the symbol."""
    count, places = mentions(conn, root, name, kind)
    if not count:
        return None
    return (f"Razor markup names '{name}' on {count} line{'s' if count != 1 else ''} ({', '.join(places)}"
            f"{', ...' if count > len(places) else ''}): markup is compiled by the Razor generator, which is not "
            "indexed, so uses there are not listed; read those lines.")


@dataclass(frozen=True)
class ConfigRead:
    """A configuration key markup reads through an injected IConfiguration (`@Config["GoogleAppKey"]`)."""
    key: str
    file: str
    line: int
    pattern: str


_INJECTED_CONFIG = re.compile(r"@inject\s+(?:[\w.]+\.)?IConfiguration\s+(\w+)")
_KEY = r"\s*\"([^\"{}]+)\"\s*"


def config_reads(conn: sqlite3.Connection, root: Path) -> list[ConfigRead]:
    """Keys SimplCommerce's views read (`@inject IConfiguration Config`, then `@Config["GoogleAppKey"]`,
    `Config.GetValue<bool>("Global.AssetBundling")`, `GetSection`, `GetConnectionString`): constant keys only."""
    def compute() -> list[ConfigRead]:
        out = []
        for rel, text in _texts(conn, root):
            for name in set(_INJECTED_CONFIG.findall(text)):
                reads = re.compile(rf"(?<![\w.]){re.escape(name)}\s*(?:\[{_KEY}\]|\.(GetValue|GetSection|"
                                   rf"GetRequiredSection|GetConnectionString)\s*(?:<[^>()]*>)?\s*\({_KEY}[,)])")
                for number, line in enumerate(text.splitlines(), start=1):
                    for indexed, method, argument in reads.findall(line):
                        key = indexed or argument
                        if method == "GetConnectionString":
                            key = f"ConnectionStrings:{key}"
                        out.append(ConfigRead(key, rel, number, method or "indexer"))
        return out
    return list(memo(conn, f"markup_config:{root}", compute))
