"""stacktrace_resolve: a pasted .NET stack trace mapped to the solution's symbols and file:line.

Parsing is pure text (`parse`); `resolve` looks each frame up. The compiler's generated names are
undone first: an async or iterator state machine (`<PlaceAsync>d__5.MoveNext()`) is its method, a
lambda (`<>c__DisplayClass3_0.<Place>b__0`, `<>c.<Place>b__3_0`) and a local function
(`<Place>g__Local|3_0`) belong to their enclosing method, and both say so in `note`. Generic arity
(`` Repo`1 ``, `Find[TKey]`) and nested types (`Outer+Inner`) follow the documentation-id rules.
A frame with ` in <path>:line N` is matched to the indexed file with the longest common path suffix
(the trace may come from another machine), and the innermost member declared around that line wins.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from roslynmap.model.errors import RoslynMapError
from roslynmap.query import inactive
from roslynmap.query.code import read_lines

# .NET Core 3+ writes an iterator's frame as its method and `+MoveNext()` (`at A.B.Items()+MoveNext()`).
FRAME = re.compile(r"^\s*at\s+(?P<frame>[^(]+?)\s*\((?P<params>[^)]*)\)(?P<iterator>\+MoveNext\(\))?"
                   r"(?:\s+in\s+(?P<file>.+?):line\s+(?P<line>\d+))?\s*$")
EXCEPTION = re.compile(r"^\s*(?:--->\s*)?(?P<type>[A-Za-z_][\w.`+]*(?:Exception|Error)\w*)(?::\s*(?P<message>.*))?$")
END_OF_TRACE = "--- End of"
# A generic method's state machine or closure class is generic too: `<FindAsync>d__4`1`, `<>c__DisplayClass2_0`1`.
# The state machine of a generic method has the method's arity (Dapper's `<QueryAsync>d__33`1` runs QueryAsync<T>).
STATE_MACHINE = re.compile(r"^<(?P<method>.+)>d__\d+(?:`(?P<arity>\d+))?$|^<(?P<lambda>.+)>d(?:`\d+)?$")
GENERATED_TYPE = re.compile(r"^<>c(?:__DisplayClass[\d_]+)?(?:`\d+)?$")
LAMBDA = re.compile(r"^<(?P<method>.+)>b__[\d_]+$")
LOCAL_FUNCTION = re.compile(r"^<(?P<method>.+)>g__(?P<local>[^|]+)\|[\d_]+$")
STATE_MACHINE_NOTE = "async/iterator state machine"
ITERATOR_FRAME_NOTE = "+MoveNext()"  # .NET Core's iterator frame: its parameters are the method's, even none
ACCESSOR = re.compile(r"^(?P<prefix>get|set|add|remove|init)_(?P<name>.+)$")


@dataclass
class Frame:
    index: int
    text: str
    type_name: str  # the declaring type as the doc id writes it: Shop.Repo`1, Shop.Outer.Inner
    method: str  # the user-visible member: PlaceAsync, .ctor, get_Name
    params: list[str]  # parameter type names as the trace shows them
    file: str | None
    line: int | None
    notes: list[str] = field(default_factory=list)
    method_arity: int = 0


@dataclass
class Trace:
    frames: list[Frame]
    exceptions: list[dict[str, str]]
    unparsed: int  # lines that look like frames but could not be read


def _split_top(text: str, sep: str) -> list[str]:
    """`text` split at `sep` outside <>, [] and ()."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "<[(":
            depth += 1
        elif ch in ">])":
            depth = max(0, depth - 1)
        elif ch == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def _segments(frame: str) -> list[str]:
    """`Shop.X..ctor` -> [Shop, X, .ctor]; `A.<>c.<M>b__0_0` -> [A, <>c, <M>b__0_0]."""
    out: list[str] = []
    for part in _split_top(frame.replace("+", "."), "."):
        if part == "" and out is not None:
            out.append("")  # the empty segment before ctor/cctor
        elif out and out[-1] == "":
            out[-1] = "." + part
        else:
            out.append(part)
    return [s for s in out if s]


def parse_frame(index: int, line: str) -> Frame | None:
    match = FRAME.match(line)
    if match is None:
        return None
    segments = _segments(match["frame"].strip())
    if len(segments) < 2:
        return None
    *types, method = segments
    notes: list[str] = [STATE_MACHINE_NOTE, ITERATOR_FRAME_NOTE] if match["iterator"] else []
    arity = 0
    generic = re.match(r"^(?P<name>.+?)\[(?P<args>[^\]]*)\]$", method)
    if generic:
        method, arity = generic["name"], generic["args"].count(",") + 1
    # Compiler-generated types and members, innermost first.
    if method == "MoveNext" and types and (sm := STATE_MACHINE.match(types[-1])):
        types.pop()
        inner = sm["method"] or sm["lambda"]
        notes.append(STATE_MACHINE_NOTE)
        method = inner
        if sm["arity"] and not arity:
            arity = int(sm["arity"])
    while types and GENERATED_TYPE.match(types[-1]):
        types.pop()
    if (local := LOCAL_FUNCTION.match(method)) is not None:
        notes.append(f"local function {local['local']}")
        method = local["method"]
    if (lam := LAMBDA.match(method)) is not None:
        notes.append("lambda")
        method = lam["method"]
    if method.startswith("<") and method.endswith(">") and not method.startswith("<Main>"):
        method = method[1:-1]
    if (local := LOCAL_FUNCTION.match(method)) is not None:  # a lambda inside a local function
        notes.append(f"local function {local['local']}")
        method = local["method"]
    # An iterator's `+MoveNext()` frame keeps its method's parameters; a MoveNext() state machine frame has none.
    params = [p.strip().rsplit(" ", 1)[0].strip() for p in _split_top(match["params"], ",") if p.strip()]
    file = match["file"].strip() if match["file"] else None
    return Frame(index, line.strip(), ".".join(types), method, params, file,
                 int(match["line"]) if match["line"] else None, notes, arity)


def parse(text: str) -> Trace:
    frames: list[Frame] = []
    exceptions: list[dict[str, str]] = []
    unparsed = 0
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(END_OF_TRACE):
            continue
        if line.startswith("at "):
            frame = parse_frame(len(frames), line)
            if frame is None:
                unparsed += 1
            else:
                frames.append(frame)
            continue
        if (exc := EXCEPTION.match(line)) is not None:
            exceptions.append({"type": exc["type"], "message": (exc["message"] or "").strip()[:300]})
    return Trace(frames, exceptions, unparsed)


# ---------------------------------------------------------------- lookup

def _simple_type(name: str) -> str:
    """`System.Threading.CancellationToken` -> `CancellationToken`; `List<Order>`/``List`1[Order]`` -> `List`."""
    name = re.split(r"[<\[`{]", name.strip().rstrip("&*@"), maxsplit=1)[0]
    return name.rsplit(".", 1)[-1].lower()


ALIASES = {"int32": "int", "int64": "long", "string": "string", "boolean": "bool", "decimal": "decimal",
           "double": "double", "single": "float", "object": "object", "byte": "byte", "int16": "short",
           "char": "char", "uint32": "uint", "uint64": "ulong"}


def _norm(name: str) -> str:
    simple = _simple_type(name)
    return ALIASES.get(simple, simple)


def _arity(name: str) -> int:
    """Type arguments of a parameter's type: ``Action`2`` (a trace), `Action{A,B}` / `Action<A,B>` (a doc id) -> 2."""
    name = name.strip()
    if (tick := re.match(r"[\w.+]*`(\d+)", name)) is not None:
        return int(tick.group(1))
    for opening, closing in (("<", ">"), ("{", "}")):
        if opening in name and closing in name:
            inner = name[name.index(opening) + 1:name.rindex(closing)]
            return len(_split_top(inner.replace("{", "<").replace("}", ">"), ","))
    return 0


def _param_fits(trace: str, declared: str) -> bool:
    """A trace's parameter type against a doc id's: a type parameter (`` `0 ``, ``` ``0 ```) fits any; else the
    simple name (aliases folded) and the number of type arguments agree (`Action`2` is not `Action{Builder}`)."""
    if declared.startswith("`"):
        return True
    return _norm(trace) == _norm(declared) and _arity(trace) == _arity(declared)


def _doc_params(symbol_id: str) -> list[str]:
    if "(" not in symbol_id:
        return []
    inner = symbol_id[symbol_id.index("(") + 1:symbol_id.rindex(")")]
    return [p for p in _split_top(inner.replace("{", "<").replace("}", ">"), ",") if p]


def _member_rows(conn: sqlite3.Connection, frame: Frame) -> list[sqlite3.Row]:
    """Symbols the frame's type and member name could be; the type shortened from the right when a
    segment was an explicit interface name (`Shop.X.System.IDisposable.Dispose`)."""
    method = frame.method
    kinds: tuple[str, ...] = ("Method", "Operator", "Conversion")
    if method in (".ctor", ".cctor"):
        kinds = ("Constructor",)
    elif (acc := ACCESSOR.match(method)) is not None:
        method = acc["name"]
        kinds = ("Property", "Indexer") if acc["prefix"] in ("get", "set", "init") else ("Event",)
        if method == "Item":
            kinds = ("Indexer",)
    elif method == "Finalize":
        kinds = ("Destructor",)
    segments = frame.type_name.split(".")
    for cut in range(len(segments), 0, -1):
        container = "T:" + ".".join(segments[:cut])
        sql = ("SELECT s.symbol_id, s.name, s.kind, s.line, s.end_line, s.signature, f.path AS file FROM symbols s"
               " LEFT JOIN files f ON f.id = s.file_id WHERE s.container_id = ?"
               f" AND s.kind IN ({','.join('?' * len(kinds))})")
        rows = conn.execute(sql, (container, *kinds)).fetchall()
        if kinds == ("Constructor",):
            rows = [r for r in rows if r["symbol_id"].split("(")[0].endswith(".#cctor") == (method == ".cctor")]
        elif kinds != ("Indexer",):
            rows = [r for r in rows if r["name"] == method
                    or r["symbol_id"].split("(")[0].rsplit(".", 1)[-1].split("`")[0] == method]
        if frame.method_arity:
            rows = [r for r in rows if f"``{frame.method_arity}" in r["symbol_id"]] or rows
        else:  # a trace writes a generic method's type arguments (`Get[T](...)`): without them, a plain method
            rows = [r for r in rows if "``" not in r["symbol_id"].split("(", 1)[0]] or rows
        if rows:  # one row per id (a file compiled into several projects declares its members in each)
            return list({r["symbol_id"]: r for r in rows}.values())
    return []


_ITERATOR = re.compile(r"\bI(?:Async)?Enumera(?:ble|tor)\b")


def _generated(frame: Frame) -> bool:
    """A frame whose parameters are not its member's: a lambda, a local function, a state machine's MoveNext()
    (an iterator's `Items(Int32 n)+MoveNext()` frame keeps its method's)."""
    return any(n == "lambda" or n.startswith("local function ") for n in frame.notes) or (
        STATE_MACHINE_NOTE in frame.notes and ITERATOR_FRAME_NOTE not in frame.notes and not frame.params)


def _state_machines_first(rows: list[sqlite3.Row]) -> list[sqlite3.Row]:
    """Overloads that compile to a state machine (async, or an iterator by its return type) first."""
    def makes_one(row: sqlite3.Row) -> bool:
        head = str(row["signature"] or "").split("(", 1)[0]
        return " async " in f" {head} " or _ITERATOR.search(head) is not None
    return sorted(rows, key=lambda r: not makes_one(r))


def _by_params(rows: list[sqlite3.Row], params: list[str]) -> tuple[list[sqlite3.Row], bool]:
    """The overloads whose parameters fit the frame's, and True; else (no overload fits: it may be in code the
    build left inactive, `#if !NETCOREAPP`) those of the same count, or all, and False."""
    def fits(row: sqlite3.Row) -> bool:
        declared = _doc_params(row["symbol_id"])
        return len(declared) == len(params) and all(_param_fits(t, d) for t, d in zip(params, declared, strict=True))
    exact = [r for r in rows if fits(r)]
    if exact or not rows:
        return exact, True
    counted = [r for r in rows if len(_doc_params(r["symbol_id"])) == len(params)]
    return counted or rows, False


def _inactive_declaration(conn: sqlite3.Connection, frame: Frame) -> str | None:
    """`#if NET46 (src/Lib/Failures.cs:20)`: where code the indexed build leaves inactive declares the frame's member
    (a constructor by its type's name) in its type."""
    owner = frame.type_name.rsplit(".", 1)[-1].split("`", 1)[0]
    member = owner if frame.method in (".ctor", ".cctor") else frame.method
    wanted = f"{owner}.{member}:"
    for region, declared in inactive.declaring(conn, member, limit=10_000):  # filtered below: no early cut
        if declared.split(" ", 1)[-1].startswith(wanted):
            return f"{region.condition} ({region.file}:{declared.rsplit(':', 1)[-1]})"
    return None


def match_file(paths: list[str], trace_path: str) -> str | None:
    """The indexed path sharing the longest suffix of segments with the trace's path (at least the file name)."""
    wanted = [s for s in trace_path.replace("\\", "/").split("/") if s]
    if not wanted:
        return None
    best, best_len = None, 0
    for path in paths:
        parts = path.split("/")
        if parts[-1] != wanted[-1]:
            continue
        common = 0
        while common < min(len(parts), len(wanted)) and parts[-1 - common] == wanted[-1 - common]:
            common += 1
        if common > best_len:
            best, best_len = path, common
    return best


def _member_path(symbol_id: str) -> str:
    """`M:A.B.Get``1(System.Int32)` -> `M:A.B.Get`: the member without its arity and parameters."""
    return re.sub(r"``\d+", "", symbol_id.split("(", 1)[0])


def _same_member(around: sqlite3.Row, rows: list[sqlite3.Row]) -> bool:
    """Whether the member holding the frame's line is an overload of the frame's member (same type and name)."""
    return any(_member_path(around["symbol_id"]) == _member_path(r["symbol_id"]) for r in rows)


def enclosing(conn: sqlite3.Connection, path: str, line: int) -> sqlite3.Row | None:
    """The innermost indexed member (else type) whose declaration spans `line` of `path`."""
    row: sqlite3.Row | None = conn.execute(
        "SELECT s.symbol_id, s.name, s.kind, s.line, s.end_line, f.path AS file FROM symbols s"
        " JOIN files f ON f.id = s.file_id WHERE f.path = ? AND s.line <= ? AND s.end_line >= ?"
        " ORDER BY s.kind IN ('Class','Struct','Record','RecordStruct','Interface','Enum'), s.end_line - s.line"
        " LIMIT 1", (path, line, line)).fetchone()
    return row


def _holding_local_function(root: Path | None, rows: list[sqlite3.Row], frame: Frame) -> list[sqlite3.Row]:
    """For a local function's frame, the overloads whose source names that local function first (it can only be
    declared and called inside its member: jellyfin's `<Authenticate>g__ThrowAuthenticationException|5_0`)."""
    local = next((n.removeprefix("local function ") for n in frame.notes if n.startswith("local function ")), None)
    if root is None or local is None or len(rows) < 2:
        return rows
    named = re.compile(rf"(?<![\w.]){re.escape(local)}\s*(?:<[^<>()]*>)?\s*\(")
    texts: dict[str, list[str]] = {}
    holding = []
    for row in rows:
        path = row["file"]
        if not path or row["line"] is None:
            continue
        if path not in texts:
            try:
                texts[path] = read_lines(root, path)
            except RoslynMapError:  # deleted, unreadable or outside the repository: no evidence either way
                texts[path] = []
        body = "\n".join(texts[path][row["line"] - 1:row["end_line"] or row["line"]])
        if named.search(body):
            holding.append(row)
    return holding + [r for r in rows if r not in holding] if holding else rows


def resolve(conn: sqlite3.Connection, trace: Trace, root: Path | None = None) -> list[dict[str, Any]]:
    """One item per frame: the symbol it is (symbol_id, file, line), or for a frame outside the solution
    the trace's `method` text alone (no symbol_id says it; the id's prefix says the kind). `root`: the working
    tree, read to tell which overload holds a local function."""
    needs_files = any(f.file for f in trace.frames)
    paths = [r[0] for r in conn.execute("SELECT path FROM files")] if needs_files else []
    out: list[dict[str, Any]] = []
    for frame in trace.frames:
        item: dict[str, Any] = {"frame": frame.index, "method": f"{frame.type_name}.{frame.method}"}
        if frame.notes:
            item["note"] = ", ".join(frame.notes)
        rows = _member_rows(conn, frame)
        # A lambda's or local function's parameters are its own, and a state machine's MoveNext() has none: then
        # the trace does not tell the member's overloads apart. A state machine's is async or an iterator.
        fitting = True
        if not _generated(frame):
            rows, fitting = _by_params(rows, frame.params)
        if STATE_MACHINE_NOTE in frame.notes:
            rows = _state_machines_first(rows)
        rows = _holding_local_function(root, rows, frame)
        file = match_file(paths, frame.file) if frame.file else None
        around = enclosing(conn, file, frame.line) if file and frame.line else None
        chosen: sqlite3.Row | None = None
        others: list[str] = []
        if around is not None and (not rows or around["symbol_id"] in {r["symbol_id"] for r in rows}
                                   or (_generated(frame) and _same_member(around, rows))):
            # A generated frame (a state machine, a lambda) names no parameters: the line tells its overloads apart.
            chosen, item["matched_by"] = around, "name+line" if rows else "line"
        elif rows and (fitting or around is None):
            chosen, item["matched_by"] = rows[0], "name"
            others = [r["symbol_id"] for r in rows[1:4]]
        elif around is not None:  # the line is the evidence when no overload takes the frame's parameters
            chosen, item["matched_by"] = around, "line"
        if not fitting and rows:
            # Polly's `BrokenCircuitException..ctor(SerializationInfo, StreamingContext)`, compiled for net462 only.
            item["parameters_differ"] = True
            if file and frame.line and (held := next((r for r in inactive.regions(conn, file) if r.holds(frame.line)),
                                                     None)) is not None:
                item["inactive"] = held.condition
            elif not frame.line and (declared := _inactive_declaration(conn, frame)) is not None:
                item["inactive"] = declared
        if chosen is None:
            out.append(item)
            continue
        del item["method"]  # the symbol_id names it (the trace's text stays on frames outside the solution)
        item["symbol_id"] = chosen["symbol_id"]
        item["file"] = file or chosen["file"]
        item["line"] = frame.line if file and frame.line else chosen["line"]
        if not file and frame.file:
            item["trace_file"] = frame.file
        if others:
            item["other_candidates"] = others
        out.append(item)
    return out
