"""Project references between the solution's projects (project_deps rows of kind 'project'), and what a set
of projects reaches through them."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Hashable, Iterable, Mapping
from typing import TypeVar

from roslynmap.query.sql import in_chunks, memo

K = TypeVar("K", bound=Hashable)


def file_projects(conn: sqlite3.Connection, paths: Iterable[str | None]) -> dict[str, int]:
    """Path -> the id of the project compiling it (one of them, for a file several projects compile), for the
    given paths the index holds."""
    wanted = sorted({p for p in paths if p})
    if not wanted:
        return {}
    marks = ",".join("?" * len(wanted))
    return {str(path): int(project) for path, project in conn.execute(
        f"SELECT path, project_id FROM files WHERE project_id IS NOT NULL AND path IN ({marks})", wanted)}


def project_references(conn: sqlite3.Connection) -> dict[int, set[int]]:
    """Project id -> the ids of the projects it references directly."""
    edges: dict[int, set[int]] = {}
    for source, target in conn.execute("SELECT project_id, target_project_id FROM project_deps"
                                       " WHERE kind = 'project' AND target_project_id IS NOT NULL"):
        edges.setdefault(source, set()).add(target)
    return edges


def referenced(edges: Mapping[K, Iterable[K]], starts: Iterable[K]) -> set[K]:
    """What `starts` reach through `edges`, directly or not (the starts themselves only when reached): the projects
    they reference; any other closure (a middleware helper's helpers, the nodes above one in a trace)."""
    reached: set[K] = set()
    frontier = list(starts)
    while frontier:
        for target in edges.get(frontier.pop(), ()):
            if target not in reached:
                reached.add(target)
                frontier.append(target)
    return reached


TEST_NAME = re.compile(r"(?:^|[.\-_])(?:[A-Za-z]*Tests?|[A-Za-z]*Specs?)$")


def is_test_project(name: str, path: str) -> bool:
    """Named like a test project (`Shop.Tests`, `Polly.Specs`) or in a `test(s)` folder."""
    dirs = [part.lower() for part in path.split("/")[:-1]]
    return TEST_NAME.search(name) is not None or "tests" in dirs or "test" in dirs


# The processes a walk may be in: the ids of the host projects whose process loads every project the walk went
# through (Processes); None: any process (not known, or a plugin's). An empty set: no process loads them together.
Hosts = frozenset[int] | None


def within(a: Hosts, b: Hosts) -> Hosts:
    """The processes both allow (None: any)."""
    if a is None:
        return b
    return a if b is None else a & b


def either(a: Hosts, b: Hosts) -> Hosts:
    """The processes one of them allows."""
    return None if a is None or b is None else a | b


class Processes:
    """Which projects one process loads together, from the project references: a host project (an app or a test
    project: an Exe, or a project nothing references that is no plain library) loads what it references, directly or
    not. A call in one project runs an implementation in another only in a process loading both: CAP's sample apps
    never run the test project's private fake of ICapPublisher, which the library's own calls may (the tests load
    both). A library nothing references and that is no test project may be a plugin a host loads by reflection
    (grandnode's plugins): any process may load it, and what runs inside it may run in any."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        edges = project_references(conn)
        referenced_somewhere = {t for targets in edges.values() for t in targets}
        self.closure: dict[int, frozenset[int]] = {}
        roots_of: dict[int, set[int]] = {}
        tests: set[int] = set()
        libraries: set[int] = set()
        for pid, kind, name, path in conn.execute("SELECT id, output_kind, name, path FROM projects"):
            self.closure[pid] = frozenset({pid} | referenced(edges, [pid]))
            if is_test_project(str(name), str(path or "")):
                tests.add(pid)
            library = kind == "Library" and pid not in tests
            if library:
                libraries.add(pid)
            if kind == "Exe" or (pid not in referenced_somewhere and not library):
                for project in self.closure[pid]:
                    roots_of.setdefault(project, set()).add(pid)
        # A library only test projects load is still a plugin to the apps (its tests reference it; a host loads it by
        # reflection): any process (review finding: the plugin's implementations vanished from the app's traces).
        for project in [p for p, roots in roots_of.items() if p in libraries and roots <= tests]:
            del roots_of[project]
        # Without a project reference nothing is known of what loads what (one project, or references not read).
        self._hosts_of = {p: frozenset(r) for p, r in roots_of.items()} if edges else {}
        self.hosts = frozenset(h for roots in self._hosts_of.values() for h in roots)
        self.tests = frozenset(tests)
        self._members: dict[int, frozenset[int]] = {}

    @property
    def active(self) -> bool:
        return bool(self._hosts_of)

    def hosts_of(self, projects: Iterable[int]) -> Hosts:
        """The host projects whose process loads one of `projects` (None: any, for a plugin, a project not known, or
        no project)."""
        found: set[int] = set()
        for project in projects:
            hosts = self._hosts_of.get(project)
            if hosts is None:
                return None
            found |= hosts
        return frozenset(found) if found else None

    def loads(self, host: int, project: int | None) -> bool:
        """Whether `host`'s process loads `project` (a plugin, or a project not known: it may)."""
        if project is None or project not in self._hosts_of:
            return True
        return host in self._hosts_of[project]

    def members(self, keys: Iterable[int]) -> dict[int, frozenset[int]]:
        """Member key -> the projects declaring it (none for a key no symbol row has)."""
        keys = list(keys)
        missing = sorted({k for k in keys if k not in self._members})
        found: dict[int, set[int]] = {}
        for key, project in in_chunks(self._conn, "SELECT i.key, s.project_id FROM ids i JOIN symbols s"
                                      " ON s.symbol_id = i.symbol_id WHERE i.key IN ({marks})", missing):
            found.setdefault(int(key), set()).add(int(project))
        for key in missing:
            self._members[key] = frozenset(found.get(key, ()))
        return {k: self._members[k] for k in keys}

    def member_hosts(self, key: int) -> Hosts:
        """The host projects whose process loads `key`'s declaration (None: any)."""
        if not self.active:
            return None
        return self.hosts_of(self.members([key])[key])

    def entered(self, hosts: Hosts, key: int) -> Hosts:
        """The processes a dispatch from a member run in `hosts` into `key` runs in: those loading `key` too (empty:
        none, the dispatch cannot happen); any, entering a plugin (its own references load with it)."""
        own = self.member_hosts(key)
        return None if own is None else within(hosts, own)

    def explains(self, callers: Iterable[int], callees: Iterable[int]) -> bool:
        """Whether the references say a call from one of `callers` (projects) into one of `callees` compiles: the
        caller's project is the callee's or references it (else a reference the index did not read: no rule)."""
        wanted = set(callees)
        return any(self.closure.get(c, frozenset()) & wanted for c in callers)


def carry(found: dict[K, Hosts], key: K, hosts: Hosts) -> None:
    """Adds one way into `key` to the processes it may run in (any way's: their union)."""
    found[key] = either(found[key], hosts) if key in found else hosts


def processes(conn: sqlite3.Connection) -> Processes:
    """Once per connection."""
    return memo(conn, "processes", lambda: Processes(conn))


def project_folders(conn: sqlite3.Connection) -> list[tuple[int, str, str]]:
    """(id, name, folder with a trailing `/`) of every project, deepest folder first."""
    rows = conn.execute("SELECT id, name, path FROM projects").fetchall()
    out = [(int(r[0]), str(r[1]), str(r[2]).rsplit("/", 1)[0] + "/" if "/" in str(r[2]) else "") for r in rows]
    return sorted(out, key=lambda p: -len(p[2]))


def project_of_path(projects: list[tuple[int, str, str]], path: str | None) -> str | None:
    """The project whose folder holds a file (an appsettings file belongs to the project beside it)."""
    if not path:
        return None
    return next((name for _, name, folder in projects if path.startswith(folder)), None)
